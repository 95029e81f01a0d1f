import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectRefused, fixtureCtx, login, useSuite } from '../../../test/helpers.ts';
import { createUser } from '../users/service.ts';

// Issue 23: an agency's own landing texts, and the main agency's marketing site, both in site data.
const c = useSuite();
const tokens: Record<string, string> = {};
const TABLES = ['agencies', 'users', 'whitelabels', 'audit_logs'];

beforeAll(async () => {
  for (const u of [c.seed.admin, c.seed.a.agencyAdmin]) tokens[u.email] = await login(c.t.app, u.email);
});

const tok = (u: { email: string }) => tokens[u.email] as string;
const put = (token: string, url: string, payload: object, headers: Record<string, string> = {}) =>
  c.t.app.inject({ method: 'PUT', url: `/api${url}`, headers: { ...bearer(token), ...headers }, payload });
const site = async (host: string) => {
  const res = await c.t.app.inject({
    method: 'GET',
    url: `/api/v1/settings/site-data/${encodeURIComponent(host)}`,
  });
  expect(res.statusCode).toBe(200);
  return res.json().data;
};
const branding = async (id: number) =>
  (await c.t.pool.query('select branding from agencies where id = $1', [id])).rows[0].branding;
const refused = (token: string, url: string, payload: object, message?: string) =>
  expectRefused(c.t, TABLES, token, 'PUT', url, payload, 422, message);

describe('landing texts (PUT /v1/agencies/settings { landingTexts })', () => {
  it("an agency admin's texts show in its site data, per language; empty ones are dropped", async () => {
    const res = await put(tok(c.seed.a.agencyAdmin), '/v1/agencies/settings', {
      landingPage: true,
      landingTexts: {
        en: { headline: 'Calls that close', guarantee_text: '  Money back, no questions.  ', stats_one: '' },
        es: { headline: 'Llamadas que venden', subheadline: '   ' },
        br: { headline: '' },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const expected = {
      en: { headline: 'Calls that close', guarantee_text: 'Money back, no questions.' },
      es: { headline: 'Llamadas que venden' },
    };
    expect((await branding(c.seed.a.agency.id)).landingTexts).toEqual(expected);
    expect((await site('agency-a.localhost')).landingTexts).toEqual(expected);
    // Another agency's site is untouched.
    expect((await site('agency-b.localhost')).landingTexts).toEqual({});

    // The set is replaced as a whole: what is left out is gone.
    const again = await put(tok(c.seed.a.agencyAdmin), '/v1/agencies/settings', {
      landingTexts: { br: { stats_title: 'Números' } },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect((await site('agency-a.localhost')).landingTexts).toEqual({ br: { stats_title: 'Números' } });
  });

  it('a text over 500 characters, an unknown key or an unknown language is a 422 and nothing is saved', async () => {
    const before = await branding(c.seed.a.agency.id);
    const long = await refused(tok(c.seed.a.agencyAdmin), '/v1/agencies/settings', {
      landingTexts: { en: { headline: 'x'.repeat(501) } },
    });
    expect(Object.keys(long.errors)).toEqual(['landingTexts.en.headline']);
    const key = await refused(tok(c.seed.a.agencyAdmin), '/v1/agencies/settings', {
      landingTexts: { en: { footer: 'Hi' } },
    });
    expect(Object.keys(key.errors)[0]).toMatch(/^landingTexts\.en/);
    const lang = await refused(tok(c.seed.a.agencyAdmin), '/v1/agencies/settings', {
      landingTexts: { fr: { headline: 'Bonjour' } },
    });
    expect(Object.keys(lang.errors)[0]).toMatch(/^landingTexts/);
    expect(await branding(c.seed.a.agency.id)).toEqual(before);
    // 500 is allowed.
    const ok = await put(tok(c.seed.a.agencyAdmin), '/v1/agencies/settings', {
      landingTexts: { en: { headline: 'y'.repeat(500) } },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('PUT /v1/agencies/landing-texts (those who edit the landing page)', () => {
  it("a Marketing Manager saves the texts; the agency's other branding is kept; others are refused", async () => {
    const email = 'landing-marketing@a.test';
    await createUser(fixtureCtx(c.t.db), {
      email,
      password: 'correct-horse-1',
      role: 'AgencyUser',
      userType: '3',
      agencyId: c.seed.a.agency.id,
      firstName: 'Mara',
    });
    const marketing = await login(c.t.app, email);
    const before = await branding(c.seed.a.agency.id);
    const texts = {
      es: { headline: 'Más llamadas', guarantee_title: '' },
      br: { subheadline: 'Mais clientes' },
    };
    const res = await put(marketing, '/v1/agencies/landing-texts', { landingTexts: texts });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Landing page texts updated successfully.');
    const after = await branding(c.seed.a.agency.id);
    expect(after.landingTexts).toEqual({
      es: { headline: 'Más llamadas' },
      br: { subheadline: 'Mais clientes' },
    });
    expect({ ...after, landingTexts: undefined }).toEqual({ ...before, landingTexts: undefined });
    expect((await site('agency-a.localhost')).landingTexts).toEqual(after.landingTexts);

    // An account manager (no landing page) and a business admin may not; a bad text changes nothing.
    for (const who of [c.seed.a.agencyUser, c.seed.a.businessAdmin]) {
      const token = await login(c.t.app, who.email);
      await expectRefused(c.t, TABLES, token, 'PUT', '/v1/agencies/landing-texts', { landingTexts: {} }, 403);
    }
    const long = await refused(marketing, '/v1/agencies/landing-texts', {
      landingTexts: { br: { subheadline: 'z'.repeat(501) } },
    });
    expect(Object.keys(long.errors)).toEqual(['landingTexts.br.subheadline']);
  });
});

describe('marketing site (PUT /v1/agencies/{id}/settings { marketingUrl })', () => {
  it('is refused for an agency that is not the main one, with the message, and nothing is saved', async () => {
    const msg = 'The marketing site address is set on the main agency only.';
    const own = await refused(
      tok(c.seed.a.agencyAdmin),
      '/v1/agencies/settings',
      { title: 'Not saved', marketingUrl: 'https://example.com' },
      msg,
    );
    expect(own.errors).toEqual({ marketingUrl: [msg] });
    await refused(
      tok(c.seed.admin),
      `/v1/agencies/${c.seed.a.agency.id}/settings`,
      { marketingUrl: 'https://example.com' },
      msg,
    );
    const es = await put(
      tok(c.seed.admin),
      `/v1/agencies/${c.seed.a.agency.id}/settings`,
      { marketingUrl: 'https://example.com' },
      { 'accept-language': 'es' },
    );
    expect(es.json().errors.marketingUrl).toEqual([
      'La dirección del sitio de marketing solo se configura en la agencia principal.',
    ]);
    expect((await branding(c.seed.a.agency.id)).marketingUrl).toBeUndefined();
    expect((await site('agency-a.localhost')).marketingUrl).toBeNull();
  });

  it("an Admin sets the main agency's address; the main domain's site data has it; '' removes it", async () => {
    const main = c.seed.main.id;
    expect((await site('localhost')).marketingUrl).toBeNull();
    const res = await put(tok(c.seed.admin), `/v1/agencies/${main}/settings`, {
      marketingUrl: 'https://marketing.example.com/home',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await site('localhost')).toMatchObject({
      isMainAgency: true,
      marketingUrl: 'https://marketing.example.com/home',
    });
    // Other settings leave it alone.
    await put(tok(c.seed.admin), `/v1/agencies/${main}/settings`, { title: 'Main Site' });
    expect((await site('localhost')).marketingUrl).toBe('https://marketing.example.com/home');

    const cleared = await put(tok(c.seed.admin), `/v1/agencies/${main}/settings`, { marketingUrl: '' });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await site('localhost')).marketingUrl).toBeNull();
    expect(await branding(main)).not.toHaveProperty('marketingUrl');
  });

  it("an Admin sets the main agency's script for its order pages; blank removes it; too long changes nothing", async () => {
    const main = c.seed.main.id;
    const script = 'window.dataLayer = window.dataLayer || [];';
    const res = await put(tok(c.seed.admin), `/v1/agencies/${main}/settings`, { custom_script: script });
    expect(res.statusCode, res.body).toBe(200);
    expect((await site('localhost')).custom_script).toBe(script);
    await refused(tok(c.seed.admin), `/v1/agencies/${main}/settings`, { custom_script: 'x'.repeat(20_001) });
    expect((await site('localhost')).custom_script).toBe(script);
    const blank = await put(tok(c.seed.admin), `/v1/agencies/${main}/settings`, { custom_script: '   ' });
    expect(blank.statusCode, blank.body).toBe(200);
    expect((await site('localhost')).custom_script).toBeNull();
  });

  it('an address that is not an http(s) URL is a 422 (validation.url)', async () => {
    for (const marketingUrl of ['not a url', 'ftp://files.example.com', 'javascript:alert(1)']) {
      const body = await refused(
        tok(c.seed.admin),
        `/v1/agencies/${c.seed.main.id}/settings`,
        { marketingUrl },
        'URL format is invalid.',
      );
      expect(Object.keys(body.errors)).toEqual(['marketingUrl']);
    }
  });
});
