import { z } from 'zod';

/**
 * Every contract imports `z` from here, so that every validation issue carries a locale key instead of
 * zod's English text: `validation.min_string|{"min":8}`. The server and the web app turn the key into
 * the spec's message in the user's language (see `formatIssueMessage`).
 */
z.config({
  customError: (iss) => {
    const empty = iss.input === undefined || iss.input === null;
    // Required first: an empty value ('' after trim, null, nothing) that a rule refuses is a missing
    // value, whatever the rule (an e-mail, a minimum length, a choice): 'The {name} field is required'.
    if ((empty || iss.input === '') && REQUIRED_FIRST.has(iss.code)) return 'validation.required';
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

/** The issues that, on an empty value, mean the value is missing. */
const REQUIRED_FIRST = new Set<string>(['invalid_type', 'too_small', 'invalid_format', 'invalid_value']);

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

/** The field a path names: its last name ('owner.email' -> 'email'); list positions ('tags.0') are not names. */
export function fieldKey(path: readonly PropertyKey[]): string | undefined {
  const last = [...path].reverse().find((p) => typeof p === 'string' && !/^\d+$/.test(p));
  return typeof last === 'string' ? last : undefined;
}

/**
 * The field as an English message names it when the locale files have no `fields.<key>` entry:
 * 'first_name' -> 'first name', 'supportEmail' -> 'support email'. Messages use `fieldName` (i18n.ts)
 * or the web app's `issueText`, which look the key up in the user's language first.
 */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const last = fieldKey(path);
  return last !== undefined
    ? last
        .replace(/_/g, ' ')
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()
    : 'value';
}

export { z };

/** Translates a locale key with `{name}`-style params; answers the key itself when it has no text. */
export type TTranslator = (key: string, params: Record<string, string | number>) => string;

/**
 * An issue message (a key with params) as text through any translator (the server's `translate`, the web
 * app's i18next): the field is named by `fields.<key>` in the user's language, else by `fieldLabel`. A
 * `name` param (a select naming its field) is a field key too.
 */
export function issueMessageWith(message: string, path: readonly PropertyKey[], t: TTranslator): string {
  const { key, params } = parseIssueMessage(message);
  const named = typeof params.name === 'string' ? [params.name] : path;
  const fieldKeyOf = fieldKey(named);
  const lookedUp = fieldKeyOf !== undefined ? t(`fields.${fieldKeyOf}`, {}) : undefined;
  const name = lookedUp !== undefined && lookedUp !== `fields.${fieldKeyOf}` ? lookedUp : fieldLabel(named);
  return t(key, { ...params, name });
}
