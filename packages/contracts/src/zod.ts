import { z } from 'zod';

/**
 * Every contract imports `z` from here, so that every validation issue carries a locale key instead of
 * zod's English text: `validation.min_string|{"min":8}`. The server and the web app turn the key into
 * the spec's message in the user's language (see `formatIssueMessage`).
 */
z.config({
  customError: (iss) => {
    const empty = iss.input === undefined || iss.input === null;
    switch (iss.code) {
      case 'invalid_type': {
        if (empty) return 'validation.required';
        const expected = String(iss.expected);
        if (expected === 'string') return 'validation.string';
        if (expected === 'boolean') return 'validation.boolean';
        if (expected === 'number' || expected === 'int') return 'validation.integer';
        if (expected === 'array') return 'validation.array';
        return 'validation.invalid';
      }
      case 'too_small':
        if (iss.origin === 'string')
          return Number(iss.minimum) <= 1
            ? 'validation.required'
            : withParams('validation.min_string', { min: iss.minimum });
        if (iss.origin === 'array') return withParams('validation.min_array', { min: iss.minimum });
        return 'validation.invalid';
      case 'too_big':
        if (iss.origin === 'string') return withParams('validation.max_string', { max: iss.maximum });
        if (iss.origin === 'array') return withParams('validation.max_array', { max: iss.maximum });
        return 'validation.invalid';
      case 'invalid_format':
        if (iss.format === 'email') return 'validation.email';
        if (iss.format === 'url') return 'validation.url';
        return 'validation.invalid';
      case 'invalid_value':
        return 'validation.in';
      case 'unrecognized_keys':
        return 'validation.unknown_field';
      default:
        return 'validation.invalid';
    }
  },
});

function withParams(key: string, params: Record<string, unknown>): string {
  return `${key}|${JSON.stringify(params)}`;
}

/** Splits an issue message made above into its key and parameters. */
export function parseIssueMessage(message: string): { key: string; params: Record<string, string | number> } {
  const bar = message.indexOf('|');
  if (bar < 0) return { key: message, params: {} };
  try {
    return { key: message.slice(0, bar), params: JSON.parse(message.slice(bar + 1)) };
  } catch {
    return { key: message, params: {} };
  }
}

/** The field as a message names it: 'first_name' -> 'first name', 'supportEmail' -> 'support email'. */
export function fieldLabel(path: readonly PropertyKey[]): string {
  // List positions ('tags.0') are not names: the list's own name is.
  const last = [...path].reverse().find((p) => typeof p === 'string' && !/^\d+$/.test(p));
  // 'first_name' and 'supportEmail' both read 'first name' / 'support email'.
  return typeof last === 'string'
    ? last
        .replace(/_/g, ' ')
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
    : 'value';
}

export { z };
