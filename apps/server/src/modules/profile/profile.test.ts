import {
  ZAgencySummary,
  ZBusinessSummary,
  ZProfileResponse,
  ZUser,
  ZUserResponse,
} from '@stn/contracts/profile';
import { describe, expect, it } from 'vitest';
import { bearer, login, PASSWORD, useSuite } from '../../../test/helpers.ts';

const c = useSuite();

const userRow = async (id: number) =>
  (await c.t.pool.query('select * from users where id = $1', [id])).rows[0];
const getProfile = (token: string) =>
  c.t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: bearer(token) });
const put = (token: string | undefined, url: string, payload: object) =>
  c.t.app.inject({ method: 'PUT', url, payload, ...(token ? { headers: bearer(token) } : {}) });

describe('GET /v1/profile', () => {
  it("returns a business user with the contract's shape, agency and business summaries", async () => {
    const res = await getProfile(await login(c.t.app, c.seed.a.businessUser.email));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(() => ZProfileResponse.parse(body)).not.toThrow();
    const { user } = body.data;
    // Exactly the contract's fields: nothing more (no password hash), nothing less.
    expect(Object.keys(user).sort()).toEqual(Object.keys(ZUser.shape).sort());
    expect(user).not.toHaveProperty('password_hash');
    expect(user).toMatchObject({
      id: c.seed.a.businessUser.id,
      email: 'bizuser@a.test',
      first_name: 'bizuser',
      last_name: 'A',
      email_verified: true,
      avatar: null,
      role: 'BusinessUser',
      role_group: 'Business',
      user_type: '3',
      agent_type: null,
      settings: {},
      countries: [],
    });
    expect(Object.keys(user.agency).sort()).toEqual(Object.keys(ZAgencySummary.shape).sort());
    expect(user.agency).toMatchObject({
      id: c.seed.a.agency.id,
      name: 'Agency A',
      subdomain: 'agency-a',
      domain: 'calls-a.example.com',
      is_main: false,
      is_template: false,
    });
    expect(Object.keys(user.business).sort()).toEqual(Object.keys(ZBusinessSummary.shape).sort());
    expect(user.business).toMatchObject({ id: c.seed.a.business.id, name: 'Business A' });
    expect(body.data).toMatchObject({ impersonating: false, impersonator: null });
  });

  it('returns an agency user with its agency and no business', async () => {
    const res = await getProfile(await login(c.t.app, c.seed.b.agencyUser.email));
    const { user } = res.json().data;
    expect(user).toMatchObject({ role: 'AgencyUser', role_group: 'Agency', user_type: '1', business: null });
    expect(user.agency.id).toBe(c.seed.b.agency.id);
  });

  it('returns a platform admin with no agency and no business', async () => {
    const res = await getProfile(await login(c.t.app, c.seed.superAdmin.email));
    expect(res.statusCode, res.body).toBe(200);
    expect(() => ZProfileResponse.parse(res.json())).not.toThrow();
    expect(res.json().data.user).toMatchObject({
      id: c.seed.superAdmin.id,
      role: 'SuperAdmin',
      role_group: 'Admin',
      user_type: null,
      agency: null,
      business: null,
    });
  });
});

describe('PUT /v1/profile', () => {
  it('updates names, avatar and language, and answers in the new language', async () => {
    const token = await login(c.t.app, c.seed.b.businessUser.email);
    const res = await put(token, '/api/v1/profile', {
      first_name: '  Bianca ',
      last_name: 'Silva',
      email: c.seed.b.businessUser.email,
      avatar: 'https://cdn.example.com/bianca.png',
      language: 'es',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(() => ZUserResponse.parse(body)).not.toThrow();
    expect(body.message).toBe('Perfil actualizado correctamente.');
    expect(body.data.user).toMatchObject({
      id: c.seed.b.businessUser.id,
      first_name: 'Bianca',
      last_name: 'Silva',
      avatar: 'https://cdn.example.com/bianca.png',
      settings: { language: 'es' },
      email_verified: true,
    });
    const row = await userRow(c.seed.b.businessUser.id);
    expect(row).toMatchObject({
      first_name: 'Bianca',
      last_name: 'Silva',
      avatar: 'https://cdn.example.com/bianca.png',
      settings: { language: 'es' },
    });

    // The chosen language now drives the messages, even a validation error.
    const bad = await put(token, '/api/v1/profile', { first_name: '', email: c.seed.b.businessUser.email });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.first_name).toEqual(['El campo nombre es obligatorio']);

    // The avatar can be cleared; leaving it out keeps it.
    const keep = await put(token, '/api/v1/profile', {
      first_name: 'Bianca',
      email: c.seed.b.businessUser.email,
    });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json().data.user).toMatchObject({
      avatar: 'https://cdn.example.com/bianca.png',
      last_name: '',
    });
    const cleared = await put(token, '/api/v1/profile', {
      first_name: 'Bianca',
      email: c.seed.b.businessUser.email,
      avatar: null,
    });
    expect(cleared.json().data.user.avatar).toBeNull();
    expect((await userRow(c.seed.b.businessUser.id)).avatar).toBeNull();
  });

  it('rejects an empty first name with 422 and saves nothing', async () => {
    const token = await login(c.t.app, c.seed.a.businessAdmin.email);
    const before = await userRow(c.seed.a.businessAdmin.id);
    for (const first_name of ['', '   ']) {
      const res = await put(token, '/api/v1/profile', {
        first_name,
        last_name: 'Changed',
        email: c.seed.a.businessAdmin.email,
        language: 'es',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        success: false,
        code: 'VALIDATION',
        message: 'The first name field is required',
        errors: { first_name: ['The first name field is required'] },
      });
    }
    expect(await userRow(c.seed.a.businessAdmin.id)).toEqual(before);
  });

  it('rejects a bad e-mail, a taken e-mail and an unknown language, saving nothing', async () => {
    const token = await login(c.t.app, c.seed.a.businessAdmin.email);
    const before = await userRow(c.seed.a.businessAdmin.id);
    const cases: [object, string, string][] = [
      [{ email: 'not-an-email' }, 'email', 'The email must be a valid email address.'],
      [{ email: 'BIZUSER@a.test' }, 'email', 'The email has already been taken.'],
      [{ language: 'fr' }, 'language', 'The language must be one of en, es or br.'],
    ];
    for (const [patch, field, message] of cases) {
      const res = await put(token, '/api/v1/profile', {
        first_name: 'Changed',
        email: c.seed.a.businessAdmin.email,
        ...patch,
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors[field]).toEqual([message]);
    }
    expect(await userRow(c.seed.a.businessAdmin.id)).toEqual(before);
  });

  it('changes the password only with the current one, ending the other sessions', async () => {
    const token = await login(c.t.app, c.seed.b.businessAdmin.email);
    const other = await login(c.t.app, c.seed.b.businessAdmin.email);
    const base = { first_name: 'bizadmin', last_name: 'B', email: c.seed.b.businessAdmin.email };
    const wrong = await put(token, '/api/v1/profile', {
      ...base,
      current_password: 'not-the-password',
      password: 'a-new-password-1',
      password_confirmation: 'a-new-password-1',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const hash = (await userRow(c.seed.b.businessAdmin.id)).password_hash;

    const ok = await put(token, '/api/v1/profile', {
      ...base,
      current_password: PASSWORD,
      password: 'a-new-password-1',
      password_confirmation: 'a-new-password-1',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await userRow(c.seed.b.businessAdmin.id)).password_hash).not.toBe(hash);
    expect((await getProfile(token)).statusCode).toBe(200);
    expect((await getProfile(other)).statusCode).toBe(401);
    await login(c.t.app, c.seed.b.businessAdmin.email, 'a-new-password-1');
  });
});

describe('PUT /v1/setting', () => {
  it('merges the settings and answers the user', async () => {
    const token = await login(c.t.app, c.seed.b.agencyAdmin.email);
    const pages = await put(token, '/api/v1/setting', {
      desktop_notifications: true,
      timezone: 'America/Chicago',
    });
    expect(pages.statusCode, pages.body).toBe(200);
    expect(() => ZUserResponse.parse(pages.json())).not.toThrow();
    expect(pages.json().message).toBe('Settings updated successfully.');
    expect(pages.json().data.user).toMatchObject({
      id: c.seed.b.agencyAdmin.id,
      settings: { desktop_notifications: true, timezone: 'America/Chicago' },
    });

    const lang = await put(token, '/api/v1/setting', { language: 'br' });
    expect(lang.statusCode, lang.body).toBe(200);
    expect(lang.json().message).toBe('Configurações atualizadas com sucesso.');
    const merged = { desktop_notifications: true, timezone: 'America/Chicago', language: 'br' };
    expect(lang.json().data.user.settings).toEqual(merged);
    expect((await userRow(c.seed.b.agencyAdmin.id)).settings).toEqual(merged);
  });

  it('rejects a bad language or page with 422 and saves nothing', async () => {
    const token = await login(c.t.app, c.seed.a.agencyAdmin.email);
    await put(token, '/api/v1/setting', { timezone: 'Europe/Madrid' });
    const before = await userRow(c.seed.a.agencyAdmin.id);
    const bad = await put(token, '/api/v1/setting', { language: 'fr', timezone: 'UTC' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({
      success: false,
      code: 'VALIDATION',
      message: 'The language must be one of en, es or br.',
      errors: { language: ['The language must be one of en, es or br.'] },
    });
    expect(await userRow(c.seed.a.agencyAdmin.id)).toEqual(before);
  });

  it('refuses custom_type_pages (permissions) and server-kept flags, changing nothing', async () => {
    const token = await login(c.t.app, c.seed.b.businessUser.email);
    const before = await userRow(c.seed.b.businessUser.id);
    for (const payload of [
      { custom_type_pages: ['inbox_page', 'users_page'] },
      { email_unsubscribed: true, timezone: 'UTC' },
    ]) {
      const res = await put(token, '/api/v1/setting', payload);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual([Object.keys(payload)[0]]);
    }
    expect(await userRow(c.seed.b.businessUser.id)).toEqual(before);
  });

  it('does not let a user clear email_unsubscribed', async () => {
    const token = await login(c.t.app, c.seed.a.agencyUser.email);

    // Set by the unsubscribe link; the user cannot clear it from here either.
    await c.t.pool.query(
      `update users set settings = settings || '{"email_unsubscribed": true}' where id = $1`,
      [c.seed.a.agencyUser.id],
    );
    const off = await put(token, '/api/v1/setting', {
      email_unsubscribed: false,
      timezone: 'America/Denver',
    });
    expect(off.statusCode, off.body).toBe(422);
    const ok = await put(token, '/api/v1/setting', { timezone: 'America/Denver' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await userRow(c.seed.a.agencyUser.id)).settings).toEqual({
      timezone: 'America/Denver',
      email_unsubscribed: true,
    });
  });
});

describe('PUT /v1/countries', () => {
  it('sets the country list, without duplicates', async () => {
    const token = await login(c.t.app, c.seed.admin.email);
    const res = await put(token, '/api/v1/countries', { countries: ['US', 'CA', 'US'] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Countries updated successfully.');
    expect(res.json().data.user.countries).toEqual(['US', 'CA']);
    expect((await userRow(c.seed.admin.id)).countries).toEqual(['US', 'CA']);
    const empty = await put(token, '/api/v1/countries', { countries: [] });
    expect(empty.json().data.user.countries).toEqual([]);
    await put(token, '/api/v1/countries', { countries: ['MX'] });
  });

  it('rejects anything but two-letter upper-case codes with 422 and keeps the list', async () => {
    const token = await login(c.t.app, c.seed.admin.email);
    for (const countries of [['CA', 'usa'], ['us'], 'US']) {
      const res = await put(token, '/api/v1/countries', { countries });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().success).toBe(false);
    }
    const res = await put(token, '/api/v1/countries', { countries: ['CA', 'usa'] });
    expect(res.json().errors).toEqual({ 'countries.1': ['Each country must be a two-letter country code.'] });
    expect((await userRow(c.seed.admin.id)).countries).toEqual(['MX']);
  });
});

describe('without a token', () => {
  it('answers 401 on every profile route, before looking at the body', async () => {
    const requests = [
      { method: 'GET' as const, url: '/api/v1/profile' },
      { method: 'PUT' as const, url: '/api/v1/profile', payload: { first_name: '' } },
      { method: 'PUT' as const, url: '/api/v1/setting', payload: { language: 'fr' } },
      { method: 'PUT' as const, url: '/api/v1/countries', payload: { countries: ['usa'] } },
    ];
    for (const req of requests) {
      for (const headers of [{}, { authorization: 'Bearer not-a-real-token' }]) {
        const res = await c.t.app.inject({ ...req, headers });
        expect(res.statusCode, `${req.method} ${req.url}`).toBe(401);
        expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Unauthenticated.' });
      }
    }
  });
});
