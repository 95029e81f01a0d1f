import { type UseFormReturnType, useForm } from '@mantine/form';
import { useState } from 'react';
import { ApiError } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/zod-form.ts';

// The one way a screen's form talks to the API: the contract's schema checks it before sending, a 422 puts
// the server's messages next to their fields, and the values stay as typed (nothing is reset on error).

type Options<V> = {
  initialValues: V;
  /** Errors by field, usually `zodResolver(schema)` over the request body made from the values. */
  validate: (values: V) => Record<string, string>;
  /** The fields this form shows: a 422 message for any other field is left to the toast. */
  fields: readonly string[];
  /** A server field the form shows under another name (price_cents at the price field). */
  rename?: Record<string, string>;
  onSubmit: (values: V) => Promise<unknown>;
  /** After a successful submit (navigate back to the list). */
  onSuccess?: () => void;
  /** A failed submit, after the field messages were placed (a modal for a particular answer). */
  onError?: (error: ApiError, form: UseFormReturnType<V>) => void;
};

export function useApiForm<V extends Record<string, unknown>>(opts: Options<V>) {
  const form = useForm<V>({ initialValues: opts.initialValues, validate: opts.validate });
  const [submitting, setSubmitting] = useState(false);
  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    try {
      await opts.onSubmit(values);
      opts.onSuccess?.();
    } catch (err) {
      const rename = opts.rename ?? {};
      const target = {
        setFieldError: (path: string, message: string) => form.setFieldError(rename[path] ?? path, message),
      };
      applyServerErrors(target, err, opts.fields);
      if (err instanceof ApiError) opts.onError?.(err, form);
    } finally {
      setSubmitting(false);
    }
  });
  return { form, submit, submitting };
}

export type ApiForm<V> = UseFormReturnType<V>;
