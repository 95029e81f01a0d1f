// Zod issues (locale keys with params) as texts, with whichever translator they are given: the app's
// i18next in forms, the contracts' `translate` in node tests. Apart from the rules in validation-messages.ts
// so that importing it costs no libphonenumber (ADR 022).
import { issueMessageWith, type z } from '@stn/contracts/zod';

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
