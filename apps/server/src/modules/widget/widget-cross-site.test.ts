// The widget as it runs on a business's own site (issue 17), over HTTP on a real database and the sandbox
// carrier: callbacks capped per install a minute and per visitor phone a day, whatever addresses ask; an
// agency still on the sandbox while this server runs without it is refused up front; the embed code and
// the widget's images name the agency's own host, never the platform's; uploaded images load on other
// sites (Cross-Origin-Resource-Policy).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, seedTenants, type TestApp } from '../../../test/helpers.ts';
import { tenantContext } from '../../platform/tenancy/context.ts';
import { addDemoNumber } from '../telephony/service.ts';
import { ALWAYS_OPEN, STAFF_1, type Telephony, telephonyApp } from '../telephony/testing.ts';

const SITE = 'https://dental.example.test';
let h: Telephony;

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const post = (t: TestApp, key: string, url: string, payload: unknown, ip = '203.0.113.1') =>
  t.app.inject({
    method: 'POST',
    url: `/api/widget${url}`,
    headers: { 'x-install-key': key, origin: SITE },
    payload: payload as Record<string, unknown>,
    remoteAddress: ip,
  });

beforeAll(async () => {
  h = await telephonyApp({
    WIDGET_RATE_PER_INSTALL: '100000',
    WIDGET_CALLBACKS_PER_INSTALL_MINUTE: '3',
    WIDGET_CALLBACKS_PER_PHONE_DAY: '2',
    // The platform's own address (telephonyApp's): the embed code keeps its scheme and port, not its host.
    PUBLIC_URL: 'http://localhost:3000',
  });
});
afterAll(() => h?.close());

describe('callback caps (issue 17)', () => {
  it('one install takes so many callbacks a minute, however many addresses and phones ask', async () => {
    const install = await h.install();
    const answers = [];
    // Each from its own address with its own phone: the per-address and per-phone limits never bite.
    for (let i = 0; i < 5; i++)
      answers.push(
        await post(h.t, install.key, '/v1/callback', { phone: `+1415555${4100 + i}` }, `198.18.0.${i + 1}`),
      );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429, 429]);
    expect(answers[3]?.json()).toMatchObject({ code: 'TOO_MANY', reason: 'widget.callbacks_busy' });
    expect(answers[3]?.json().message).toMatch(/many callback requests/);
    // The staff were rung three times, not five.
    expect(await rows('select id from calls where install_id = $1', [install.id])).toHaveLength(3);
    await h.run(120_000);
  });

  it('one visitor phone gets so many callbacks a day from the business, whatever addresses ask', async () => {
    const victim = '+14155554200';
    const codes: number[] = [];
    // Another install each time (the per-install cap is not what stops it), another address each time.
    for (let i = 0; i < 3; i++) {
      const install = await h.install({ timeout: 20 });
      const res = await post(h.t, install.key, '/v1/callback', { phone: victim }, `198.18.1.${i + 1}`);
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.json()).toMatchObject({ code: 'TOO_MANY', reason: 'widget.callbacks_phone_day' });
        expect(res.json().message).toMatch(/several callbacks today/);
      }
      // Nobody answers: the call ends (missed), so the one-in-flight rule is not what stops the next one.
      // Its end is waited for as a state (the carrier's last reports may still be on their way on a busy
      // machine), not as a time.
      await h.run(120_000);
      if (res.statusCode === 200) {
        const id = res.json().data.call_id as number;
        await expect
          .poll(
            async () => {
              await h.run(1_000);
              return (await rows('select ended_at from calls where id = $1', [id]))[0]?.ended_at ?? null;
            },
            { timeout: 30_000 },
          )
          .not.toBeNull();
      }
    }
    expect(codes).toEqual([200, 200, 429]);
    expect(await rows('select id from calls where visitor_phone = $1', [victim])).toHaveLength(2);
    // Another phone is not held back by it.
    const other = await h.install();
    const res = await post(h.t, other.key, '/v1/callback', { phone: '+14155554201' }, '198.18.1.9');
    expect(res.statusCode, res.body).toBe(200);
    await h.run(120_000);
  });
});

describe('the embed code names the agency, never the platform (issue 17)', () => {
  const embed = async (agencyDomain: string | null, agencySub: string | null) => {
    await h.t.pool.query('update agencies set domain = $1, subdomain = $2 where id = $3', [
      agencyDomain,
      agencySub,
      h.seed.a.agency.id,
    ]);
    const install = await h.install();
    const res = await h.t.app.inject({
      url: `/api/v1/installs/${install.id}/embed-code`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
    });
    expect(res.statusCode, res.body).toBe(200);
    return { install, code: res.json().data.code as string };
  };

  it("uses the agency's subdomain of the main domain (acme.localhost), with PUBLIC_URL's scheme and port", async () => {
    const { install, code } = await embed(null, 'acme');
    expect(code).toBe(
      `<script src="http://acme.localhost:3000/widget.js" data-key="${install.key}" async></script>`,
    );
  });

  it("uses the agency's own custom domain when it has one, and the widget's images are on it too", async () => {
    const { install, code } = await embed('calls.acme-marketing.test', 'acme');
    expect(code).toBe(
      `<script src="http://calls.acme-marketing.test:3000/widget.js" data-key="${install.key}" async></script>`,
    );
    expect(code).not.toContain('//localhost');
    await h.t.pool.query('update installs set logo = $1 where id = $2', [
      `/uploads/installs/${install.id}/logo.png?v=1`,
      install.id,
    ]);
    const config = await h.t.app.inject({
      url: '/api/widget/v1/config',
      headers: { 'x-install-key': install.key, origin: SITE, host: 'calls.acme-marketing.test' },
    });
    expect(config.statusCode, config.body).toBe(200);
    expect(config.json().data.logo).toBe(
      `http://calls.acme-marketing.test:3000/uploads/installs/${install.id}/logo.png?v=1`,
    );
    expect(config.body).not.toContain('//localhost');
  });

  it('serves uploaded images (the widget icon, the logo) to other sites: no same-origin resource policy', async () => {
    const install = await h.install();
    const png = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64')}`;
    const up = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/installs/${install.id}/widgetIcon`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { data: png },
    });
    expect(up.statusCode, up.body).toBe(200);
    const file = await h.t.app.inject({ url: (up.json().data.url as string).split('?')[0] as string });
    expect(file.statusCode).toBe(200);
    // An <img> on the business's site is a no-cors request: `same-origin` here would block it.
    expect(file.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // Still shown, never run.
    expect(String(file.headers['content-security-policy'])).toContain('sandbox');
  });
});

describe('an agency on the sandbox while the server runs without it (CARRIER_SANDBOX=false)', () => {
  let t: TestApp;
  let key = '';
  beforeAll(async () => {
    t = await createTestApp({ CARRIER_SANDBOX: 'false', WIDGET_RATE_PER_ADDRESS: '100000' });
    const seed = await seedTenants(t.db);
    // The account the agency chose in Setup while the sandbox was on: its sid and token are kept.
    await t.pool.query('update agencies set twilio_config = $1 where id = $2', [
      JSON.stringify({
        accountSid: `AC${'0123456789abcdef'.repeat(2)}`,
        authToken: t.app.deps.secrets.seal('token-of-the-sandbox-account'),
        sandbox: true,
      }),
      seed.a.agency.id,
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/installs',
      headers: bearer(await login(t.app, seed.a.businessAdmin.email)),
      payload: {
        name: 'Site on a gone sandbox',
        website: 'https://example.test',
        settings: { timezone: 'UTC', hours: ALWAYS_OPEN, phoneAgents: [{ name: 'Desk', phone: STAFF_1 }] },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const install = res.json().data as { id: number; key: string };
    key = install.key;
    const ctx = tenantContext(
      t.app.deps,
      { level: 'business', agencyId: seed.a.agency.id, businessId: seed.a.business.id },
      { kind: 'system', source: 'seed', name: 'test number' },
    );
    await addDemoNumber(ctx, {
      agencyId: seed.a.agency.id,
      businessId: seed.a.business.id,
      installId: install.id,
      phoneNumber: '+15005550006',
    });
  });
  afterAll(() => t?.close());

  it('refuses a callback, a booking and a text up front with a clear sentence, and writes nothing', async () => {
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    for (const [url, payload] of [
      ['/v1/callback', { phone: '+14155554300' }],
      ['/v1/schedule', { phone: '+14155554300', scheduled_at: later }],
      ['/v1/text', { phone: '+14155554300', message: 'Hello?' }],
    ] as const) {
      const res = await post(t, key, url, payload);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', reason: 'widget.carrier_unavailable' });
      expect(res.json().message).toMatch(/cannot call or text you right now/);
    }
    const calls = await t.pool.query('select id from calls');
    expect(calls.rows).toEqual([]);
    const messages = await t.pool.query('select id from messages');
    expect(messages.rows).toEqual([]);
  });
});
