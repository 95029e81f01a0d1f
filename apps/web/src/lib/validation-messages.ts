// The validation rules of spec 000 §5 for the web forms. The subdomain, custom URL, URL and password
// confirmation rules (and their message keys) live in the contracts and are re-exported, not copied; the
// phone rule needs libphonenumber-js, so it is defined here. Every rule yields a locale key (with params)
// as its issue message; `issueMessages` turns the issues into texts with whichever translator it is given
// (the app's i18next in forms, the contracts' `translate` in node tests), so nothing here touches the DOM.
import { issueMessageWith, z } from '@stn/contracts/zod';
import { isValidPhoneNumber } from 'libphonenumber-js';

export { withPasswordConfirmation, zCustomUrl, zSubdomain, zUrl } from '@stn/contracts/validation';

/** 'Wrong phone number format!!' (spec 000 §5). */
export const PHONE_MESSAGE = 'validation.phone';

/**
 * A phone number in international form (what PhoneField emits, e.g. '+12133734253'). Empty is
 * 'The {name} field is required' unless `optional`, in which case '' is accepted as "no number".
 */
export function zPhone(opts: { optional?: boolean } = {}) {
  if (opts.optional) {
    return z
      .string()
      .trim()
      .refine((v) => v === '' || isValidPhoneNumber(v), { message: PHONE_MESSAGE });
  }
  return z
    .string()
    .trim()
    .min(1)
    .pipe(z.string().refine((v) => isValidPhoneNumber(v), { message: PHONE_MESSAGE }));
}

/**
 * A required select: 'The {name} field is required' when nothing (null, undefined or '') is chosen.
 * `name` overrides the field name taken from the path (for a friendlier or translated label).
 */
export function zRequiredSelect(name?: string) {
  const message = name ? `validation.required|${JSON.stringify({ name })}` : 'validation.required';
  return z.string({ message }).min(1, { message });
}

/** Translates a locale key with `{name}`-style params. */
export type Translator = (key: string, params: Record<string, string | number>) => string;

/**
 * One issue message (a key, maybe with params) as text: the field is named from the locale files
 * (`fields.<key>` in the translator's language), else from the path.
 */
export function issueMessage(message: string, path: readonly PropertyKey[], translate: Translator): string {
  return issueMessageWith(message, path, translate);
}

/** The first message of each field ('a.b' for nested paths), as forms show them. */
export function issueMessages(
  issues: readonly z.core.$ZodIssue[],
  text: (message: string, path: readonly PropertyKey[]) => string,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    if (!(field in errors)) errors[field] = text(issue.message, issue.path);
  }
  return errors;
}
