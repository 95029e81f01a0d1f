// Messages in the caller's language (issue 8, "A new user's first hour"): validation messages name the
// field from the locale files, an empty value is 'required' first, the avatar takes http(s) URLs only,
// counts read in the singular and plural, and public calls follow Accept-Language.
import { describe, expect, it } from 'vitest';
import { bearer, expect422, PASSWORD, rows, snapshot, useSuite } from './helpers.ts';

const c = useSuite();
const USERS = ['users', 'audit_logs', 'mail_outbox'];

type Lang = 'en' | 'es' | 'br';
const send = async (lang: Lang, method: 'POST' | 'PUT', url: string, payload: object, token?: string) =>
  c.t.app.inject({
    method,
    url: `/api${url}`,
    headers: { 'accept-language': lang, ...(token ? bearer(token) : {}) },
    payload,
  });

const newBusinessUser = (over: Record<string, unknown> = {}) => ({
  first_name: 'Sally',
  email: `u${Math.random().toString(36).slice(2, 8)}@a.test`,
  password: 'a-good-password',
  password_confirmation: 'a-good-password',
  role: 'BusinessUser',
  user_type: '3',
  ...over,
});

describe('field names in messages come from the locale files', () => {
  it.each([
    ['es', 'El campo nombre es obligatorio', 'El campo correo electrónico es obligatorio'],
    ['br', 'O campo nome é obrigatório', 'O campo e-mail é obrigatório'],
    ['en', 'The first name field is required', 'The email field is required'],
  ] as const)('names first_name and email in %s', async (lang, firstName, email) => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const before = await snapshot(c.t.pool, USERS);
    const res = await send(
      lang,
      'POST',
      '/v1/businesses/users',
      newBusinessUser({ first_name: '', email: '' }),
      token,
    );
    expect422(res, 'first_name', firstName);
    expect(res.json().errors.email).toEqual([email]);
    expect(await snapshot(c.t.pool, USERS)).toEqual(before);
  });

  it('names a field of a service rule too (nested paths by their own name)', async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const res = await send('es', 'POST', '/v1/businesses/users', newBusinessUser({ email: 'nope' }), token);
    expect422(res, 'email', 'El campo correo electrónico debe ser un correo electrónico válido.');
  });
});

describe('an empty value is required first, on every form that shares the contract', () => {
  it('the agency user form: empty user type, e-mail and password say required', async () => {
    const before = await snapshot(c.t.pool, USERS);
    const token = await c.token(c.seed.a.agencyAdmin.email);
    const res = await send(
      'en',
      'POST',
      '/v1/agency/users',
      { first_name: 'N', email: '', user_type: '', password: '', password_confirmation: '' },
      token,
    );
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().errors).toMatchObject({
      email: ['The email field is required'],
      user_type: ['The user type field is required'],
      password: ['The password field is required'],
    });
    expect(await snapshot(c.t.pool, USERS)).toEqual(before);
  });

  it('a value that is there still gets its own message', async () => {
    const token = await c.token(c.seed.a.agencyAdmin.email);
    const res = await send(
      'en',
      'POST',
      '/v1/agency/users',
      { first_name: 'N', email: 'x', user_type: '9', password: 'short', password_confirmation: 'short' },
      token,
    );
    expect(res.json().errors).toMatchObject({
      email: ['The email must be a valid email address.'],
      user_type: ['The selected user type is invalid.'],
      password: ['The password must be at least 8 characters.'],
    });
  });
});

describe('the avatar URL (PUT /v1/profile)', () => {
  const profile = (avatar: unknown) => ({
    first_name: 'Bea',
    email: c.seed.a.businessUser.email,
    avatar,
  });

  it.each([
    'not a url',
    'javascript:alert(1)',
    'ftp://example.com/a.png',
    'data:image/png;base64,AAAA',
  ])('refuses %s and changes nothing', async (avatar) => {
    const token = await c.token(c.seed.a.businessUser.email);
    const before = await snapshot(c.t.pool, ['users']);
    expect422(
      await send('en', 'PUT', '/v1/profile', profile(avatar), token),
      'avatar',
      'URL format is invalid.',
    );
    expect422(
      await send('es', 'PUT', '/v1/profile', profile(avatar), token),
      'avatar',
      'El formato de la URL no es válido.',
    );
    expect(await snapshot(c.t.pool, ['users'])).toEqual(before);
  });

  it('takes an https URL, and blank clears it', async () => {
    const token = await c.token(c.seed.a.businessUser.email);
    const id = c.seed.a.businessUser.id;
    const ok = await send('en', 'PUT', '/v1/profile', profile('https://cdn.example.com/me.png'), token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await rows(c.t, 'select avatar from users where id = $1', [id]))[0].avatar).toBe(
      'https://cdn.example.com/me.png',
    );
    const cleared = await send('en', 'PUT', '/v1/profile', profile(''), token);
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await rows(c.t, 'select avatar from users where id = $1', [id]))[0].avatar).toBeNull();
  });
});

describe('plurals', () => {
  const seats = (n: number) =>
    c.t.pool.query('update businesses set number_of_users = $2 where id = $1', [c.seed.a.business.id, n]);
  const activeUsers = async () =>
    (
      await rows(c.t, 'select count(*)::int as n from users where business_id = $1 and active', [
        c.seed.a.business.id,
      ])
    )[0].n as number;

  it('a limit of 1 active user reads in the singular, in every language', async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const n = await activeUsers();
    // Only the business admin stays active, so that the limit is 1.
    await c.t.pool.query('update users set active = false where business_id = $1 and id <> $2', [
      c.seed.a.business.id,
      c.seed.a.businessAdmin.id,
    ]);
    try {
      await seats(1);
      const cases = [
        [
          'en',
          'This business has reached its limit of 1 active user. Upgrade the plan or deactivate a user first.',
        ],
        [
          'es',
          'Este negocio alcanzó su límite de 1 usuario activo. Mejore el plan o desactive primero a un usuario.',
        ],
        [
          'br',
          'Esta empresa atingiu o limite de 1 usuário ativo. Faça upgrade do plano ou desative um usuário primeiro.',
        ],
      ] as const;
      for (const [lang, text] of cases)
        expect422(await send(lang, 'POST', '/v1/businesses/users', newBusinessUser(), token), 'users', text);
    } finally {
      await c.t.pool.query('update users set active = true where business_id = $1', [c.seed.a.business.id]);
      await seats(n + 20);
    }
  });

  it('one imported number reads in the singular, two in the plural', async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const one = await send('en', 'POST', '/v1/blacklist/import', { phones: ['+1 213 373 4290'] }, token);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().message).toBe('1 number imported, 0 skipped.');
    const es = await send('es', 'POST', '/v1/blacklist/import', { phones: ['+1 213 373 4291'] }, token);
    expect(es.json().message).toBe('1 número importado, 0 omitidos.');
    const two = await send(
      'br',
      'POST',
      '/v1/blacklist/import',
      { phones: ['+12133734292', '+12133734293'] },
      token,
    );
    expect(two.json().message).toBe('2 números importados, 0 ignorados.');
  });
});

describe('public calls follow Accept-Language', () => {
  it.each([
    ['es-ES,es;q=0.9', 'El campo correo electrónico es obligatorio'],
    ['pt-BR,pt;q=0.9,en;q=0.8', 'O campo e-mail é obrigatório'],
    ['fr-FR,de;q=0.9', 'The email field is required'],
  ])('a sign-in with no e-mail, from a browser in %s', async (header, text) => {
    const res = await c.t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'accept-language': header },
      payload: { email: '', password: PASSWORD },
    });
    expect422(res, 'email', text);
  });
});
