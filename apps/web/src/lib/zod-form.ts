// Mantine form <-> contracts zod schemas: the schema's issues (locale keys) become messages in the
// current language, and a server 422 puts its field messages next to the same fields.
import type { z } from '@stn/contracts/zod';
import { ApiError } from './api-client.ts';
import { issueText } from './i18n.ts';
import { issueMessages } from './issue-messages.ts';

/** A Mantine `validate` function from a zod schema: { field: first message } for each invalid field. */
export function zodResolver<Values>(
  schema: z.ZodType,
  text: (message: string, path: readonly PropertyKey[]) => string = issueText,
) {
  return (values: Values): Record<string, string> => {
    const result = schema.safeParse(values);
    return result.success ? {} : issueMessages(result.error.issues, text);
  };
}

type FormLike = { setFieldError: (path: string, error: string) => void };

/**
 * Shows a 422's field messages next to their fields (only `fields`, when given, so that a message for a
 * field the form does not show is left to the toast). Answers whether any was shown.
 */
export function applyServerErrors(form: FormLike, error: unknown, fields?: readonly string[]): boolean {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION') return false;
  let shown = false;
  for (const name of Object.keys(error.body?.errors ?? {})) {
    if (fields && !fields.includes(name)) continue;
    const message = error.field(name);
    if (message) {
      form.setFieldError(name, message);
      shown = true;
    }
  }
  return shown;
}
