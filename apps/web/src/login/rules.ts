// The light sign-in page's rules (ADR 025), kept free of the app's libraries (no zod, no i18next) so the
// page stays a few KB. texts.test.ts checks them against the contracts' own rules.

export type Lang = 'en' | 'es' | 'br';
const LANGS: readonly string[] = ['en', 'es', 'br'];

/** The stored choice of the app (localStorage 'lang', lib/i18n.ts), else the browser's languages. */
export function pickLanguage(stored: string | null, languages: readonly string[]): Lang {
  if (stored && LANGS.includes(stored)) return stored as Lang;
  for (const tag of languages) {
    const base = tag.trim().toLowerCase().split('-')[0] ?? '';
    if (base === 'pt' || base === 'br') return 'br';
    if (LANGS.includes(base)) return base as Lang;
  }
  return 'en';
}

/** Only a path of this site (not '//host' or a full URL): the `redirect` param is user-controlled. */
export function safeRedirect(value: string | null): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

// zod's e-mail pattern (z.email(), in the contracts' zEmail); the length limit is left to the server.
export const EMAIL_RE =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

export type Texts = Record<string, string>;

const fill = (text: string, name: string) => text.replace('{name}', name);

/** The form's messages, as the app's form shows them: required first, then the e-mail format. */
export function validateLogin(email: string, password: string, t: Texts): Record<string, string> {
  const errors: Record<string, string> = {};
  const mail = email.trim().toLowerCase();
  if (!mail) errors.email = fill(t['validation.required'] ?? '', t['fields.email'] ?? 'email');
  else if (!EMAIL_RE.test(mail))
    errors.email = fill(t['validation.email'] ?? '', t['fields.email'] ?? 'email');
  if (!password) errors.password = fill(t['validation.required'] ?? '', t['fields.password'] ?? 'password');
  return errors;
}
