// Spec 000 §5 messages, as a web form shows them, in en and es. Node only: the translator is the
// contracts' `translate` over the same locale files the web app merges into i18next (lib/i18n.ts itself
// needs a browser), fed through the same `issueMessages`/`issueMessage` the form resolver uses.

import { ZPasswordResetRequest } from '@stn/contracts/auth';
import type { TLanguage } from '@stn/contracts/constants';
import { translate } from '@stn/contracts/i18n';
import { ZUpdateProfileRequest } from '@stn/contracts/profile';
import { ZCreateBusinessUserRequest } from '@stn/contracts/users';
import { z } from '@stn/contracts/zod';
import { describe, expect, it } from 'vitest';
import {
  issueMessage,
  issueMessages,
  withPasswordConfirmation,
  zCustomUrl,
  zPhone,
  zRequiredSelect,
  zSubdomain,
  zUrl,
} from './validation-messages.ts';

/** What a form shows for `value` in `field`: { field: message } (empty when valid). */
function errorsOf(schema: z.ZodType, values: unknown, lang: TLanguage): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  return issueMessages(result.error.issues, (message, path) =>
    issueMessage(message, path, (key, params) => translate(key, lang, params)),
  );
}

const field = (name: string, schema: z.ZodType) => z.object({ [name]: schema });
const messageOf = (name: string, schema: z.ZodType, value: unknown, lang: TLanguage) =>
  errorsOf(field(name, schema), { [name]: value }, lang)[name];

describe('phone (libphonenumber-js)', () => {
  it.each([
    ['en', 'Wrong phone number format!!'],
    ['es', '¡¡Formato de número de teléfono incorrecto!!'],
  ] as const)('rejects a malformed number in %s', (lang, text) => {
    expect(messageOf('phone', zPhone(), '+1 213 37', lang)).toBe(text);
    expect(messageOf('phone', zPhone(), '+999 1234567', lang)).toBe(text);
    expect(messageOf('phone', zPhone({ optional: true }), '+44 12', lang)).toBe(text);
  });

  it('accepts valid international numbers (what PhoneField emits)', () => {
    expect(messageOf('phone', zPhone(), '+12133734253', 'en')).toBeUndefined();
    expect(messageOf('phone', zPhone(), '+1 604 555 0123', 'en')).toBeUndefined();
    expect(messageOf('phone', zPhone(), ' +34 612 345 678 ', 'es')).toBeUndefined();
  });

  it('says the field is required when empty, unless optional', () => {
    expect(messageOf('phone', zPhone(), '', 'en')).toBe('The phone field is required');
    expect(messageOf('phone', zPhone(), undefined, 'es')).toBe('El campo teléfono es obligatorio');
    expect(messageOf('phone', zPhone({ optional: true }), '', 'en')).toBeUndefined();
  });
});

describe('subdomain', () => {
  it.each([
    ['en', 'SubDomain format is invalid.'],
    ['es', 'El formato del subdominio no es válido.'],
  ] as const)('rejects other than lowercase letters, digits and hyphen in %s', (lang, text) => {
    expect(messageOf('subdomain', zSubdomain(), 'My_Shop', lang)).toBe(text);
    expect(messageOf('subdomain', zSubdomain(), 'shop.example', lang)).toBe(text);
  });

  it('accepts lowercase letters, digits and hyphens', () => {
    expect(messageOf('subdomain', zSubdomain(), 'my-shop-24', 'en')).toBeUndefined();
  });
});

describe('customurl', () => {
  it.each([
    ['en', 'Custom URL format is invalid.'],
    ['es', 'El formato de la URL personalizada no es válido.'],
  ] as const)('rejects a leading http or a non-hostname in %s', (lang, text) => {
    expect(messageOf('domain', zCustomUrl(), 'https://shop.example.com', lang)).toBe(text);
    expect(messageOf('domain', zCustomUrl(), 'httpshop.com', lang)).toBe(text);
    expect(messageOf('domain', zCustomUrl(), 'not a host', lang)).toBe(text);
  });

  it('accepts a bare hostname', () => {
    expect(messageOf('domain', zCustomUrl(), 'shop.example.com', 'en')).toBeUndefined();
  });
});

describe('url', () => {
  it.each([
    ['en', 'URL format is invalid.'],
    ['es', 'El formato de la URL no es válido.'],
  ] as const)('rejects what is not an http(s) URL in %s', (lang, text) => {
    expect(messageOf('url', zUrl(), 'example.com', lang)).toBe(text);
    expect(messageOf('url', zUrl(), 'ftp://example.com', lang)).toBe(text);
  });

  it('accepts http and https URLs', () => {
    expect(messageOf('url', zUrl(), 'https://example.com/page?x=1', 'en')).toBeUndefined();
    expect(messageOf('url', zUrl(), 'http://example.com', 'en')).toBeUndefined();
  });
});

describe('password confirmation', () => {
  const schema = withPasswordConfirmation(
    z.object({ password: z.string(), password_confirmation: z.string() }),
  );
  const reset = { token: 't0k3n', email: 'jane@example.com', password: 'correct horse' };

  it.each([
    ['en', 'Password confirmation does not match'],
    ['es', 'La confirmación de la contraseña no coincide'],
  ] as const)('puts the mismatch under password_confirmation in %s', (lang, text) => {
    expect(errorsOf(schema, { password: 'secret-1', password_confirmation: 'secret-2' }, lang)).toEqual({
      password_confirmation: text,
    });
    // The reset screen validates with the contract's request schema.
    expect(
      errorsOf(ZPasswordResetRequest, { ...reset, password_confirmation: 'correct hose' }, lang),
    ).toEqual({
      password_confirmation: text,
    });
  });

  it('passes when both are equal', () => {
    expect(errorsOf(schema, { password: 'secret-1', password_confirmation: 'secret-1' }, 'en')).toEqual({});
    expect(
      errorsOf(ZPasswordResetRequest, { ...reset, password_confirmation: 'correct horse' }, 'en'),
    ).toEqual({});
  });
});

describe('required select', () => {
  it.each([
    ['en', 'The industry field is required'],
    ['es', 'El campo sector es obligatorio'],
    ['br', 'O campo setor é obrigatório'],
  ] as const)('names the field when nothing is chosen in %s', (lang, text) => {
    expect(messageOf('industry', zRequiredSelect(), null, lang)).toBe(text);
    expect(messageOf('industry', zRequiredSelect(), '', lang)).toBe(text);
    expect(messageOf('industry', zRequiredSelect(), undefined, lang)).toBe(text);
  });

  it('uses the given name instead of the field path', () => {
    expect(messageOf('industry_id', zRequiredSelect('industry'), null, 'en')).toBe(
      'The industry field is required',
    );
    expect(messageOf('industry_id', zRequiredSelect('sector'), '', 'es')).toBe(
      'El campo sector es obligatorio',
    );
  });

  it('accepts a chosen option', () => {
    expect(messageOf('industry', zRequiredSelect(), '3', 'en')).toBeUndefined();
  });
});

describe('field names come from the locale files', () => {
  it.each([
    ['en', 'The first name field is required'],
    ['es', 'El campo nombre es obligatorio'],
    ['br', 'O campo nome é obrigatório'],
  ] as const)('names first_name in %s', (lang, text) => {
    expect(messageOf('first_name', z.string().trim().min(1), '  ', lang)).toBe(text);
  });

  it('names a nested field by its own key and keeps unknown keys readable', () => {
    expect(errorsOf(field('owner', z.object({ email: z.email() })), { owner: { email: 'x' } }, 'es')).toEqual(
      {
        'owner.email': 'El campo correo electrónico debe ser un correo electrónico válido.',
      },
    );
    expect(messageOf('some_new_field', z.string().min(1), '', 'es')).toBe(
      'El campo some new field es obligatorio',
    );
  });
});

describe('required first: an empty value is missing, whatever the rule', () => {
  const user = (lang: TLanguage, values: Record<string, unknown>) =>
    errorsOf(ZCreateBusinessUserRequest, { role: 'BusinessUser', ...values }, lang);

  it('says required for an empty e-mail, password and user type (not format, length or choice)', () => {
    expect(
      user('en', { first_name: 'Ann', email: '', password: '', password_confirmation: '', user_type: '' }),
    ).toEqual({
      email: 'The email field is required',
      password: 'The password field is required',
      user_type: 'The user type field is required',
    });
    expect(
      user('es', { first_name: '', email: ' ', password: '', password_confirmation: '', user_type: null }),
    ).toEqual({
      first_name: 'El campo nombre es obligatorio',
      email: 'El campo correo electrónico es obligatorio',
      password: 'El campo contraseña es obligatorio',
      user_type: 'El campo tipo de usuario es obligatorio',
    });
  });

  it('still says what is wrong with a value that is there', () => {
    expect(
      user('en', {
        first_name: 'Ann',
        email: 'nope',
        password: 'short',
        password_confirmation: 'short',
        user_type: 'x',
      }),
    ).toEqual({
      email: 'The email must be a valid email address.',
      password: 'The password must be at least 8 characters.',
      user_type: 'The selected user type is invalid.',
    });
  });
});

describe('avatar URL (profile)', () => {
  const avatarError = (avatar: unknown, lang: TLanguage = 'en') =>
    errorsOf(ZUpdateProfileRequest, { first_name: 'Ann', email: 'ann@example.com', avatar }, lang).avatar;

  it.each([
    'not a url',
    'javascript:alert(1)',
    'ftp://example.com/a.png',
    'example.com/a.png',
  ])('refuses %s', (avatar) => {
    expect(avatarError(avatar)).toBe('URL format is invalid.');
    expect(avatarError(avatar, 'es')).toBe('El formato de la URL no es válido.');
  });

  it('takes http(s) URLs, and blank or null as no avatar', () => {
    for (const avatar of ['https://example.com/a.png', 'http://example.com/a.png', '', null, undefined])
      expect(avatarError(avatar)).toBeUndefined();
  });
});

describe('issueMessages', () => {
  it('keeps the first message of each field and names nested fields with dots', () => {
    const schema = z.object({ user: z.object({ first_name: z.string().min(2).max(1) }), phone: zPhone() });
    expect(errorsOf(schema, { user: { first_name: 'abc' }, phone: '' }, 'en')).toEqual({
      'user.first_name': 'The first name may not be greater than 1 characters.',
      phone: 'The phone field is required',
    });
  });
});
