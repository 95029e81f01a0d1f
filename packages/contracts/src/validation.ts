import { PASSWORD_MIN_LENGTH } from './constants.ts';
import { z } from './zod.ts';

// The validation rules of spec 000 §5, with the spec's messages as locale keys.
export const SUBDOMAIN_RE = /^[a-z0-9-]+$/;
// A hostname: labels of letters, digits and hyphens, dot-separated, with a TLD (or 'localhost').
export const HOSTNAME_RE =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$|^localhost$/i;

export const zEmail = () => z.string().trim().toLowerCase().pipe(z.email().max(191));
export const zPassword = () => z.string().min(PASSWORD_MIN_LENGTH).max(200);
export const zSubdomain = () =>
  z.string().trim().min(1).max(63).regex(SUBDOMAIN_RE, { message: 'validation.subdomain' });
export const zCustomUrl = () =>
  z
    .string()
    .trim()
    .min(1)
    .refine((v) => !/^http/i.test(v) && HOSTNAME_RE.test(v), { message: 'validation.customurl' });
export const zUrl = () =>
  z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(v), { message: 'validation.url' });

/** Adds the 'Password confirmation does not match' rule on `password_confirmation`. */
export function withPasswordConfirmation<
  T extends z.ZodType<{ password: string; password_confirmation: string }>,
>(schema: T) {
  return schema.refine((v) => v.password === v.password_confirmation, {
    message: 'validation.password_confirmation',
    path: ['password_confirmation'],
  });
}
