// The live view end to end (ADR 083): a callback through the widget, the sandbox carrier's phones and the
// product's webhooks shows as ringing, then in progress, then is gone; the widget's heartbeat counts a
// visitor for its install until the panel closes; another business sees none of it; and the business's
// (and its agency's) sockets hear `live_data` as it moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, openSocket } from '../../../test/helpers.ts';
import { STAFF_1, staffTakes, type Telephony, telephonyApp } from '../telephony/testing.ts';

let h: Telephony;
let install: { id: number; key: string };
const ORIGIN = 'https://shop.example.org';

beforeAll(async () => {
  h = await telephonyApp();
  install = await h.install();
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => h?.close());

type Live = {
  calls: Record<string, unknown>[];
  visitors: { total: number; by_install: Record<string, unknown>[] };
  at: string;
};

async function live(email: string): Promise<Live> {
  const res = await h.t.app.inject({ url: '/api/v1/live-data', headers: bearer(await h.token(email)) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Live;
}

const beat = (key: string, visitor: string, open: '0' | '1' = '1') =>
  h.t.app.inject({
    method: 'POST',
    url: `/api/widget/v1/presence?key=${key}&visitor=${visitor}&open=${open}`,
    headers: { origin: ORIGIN },
  });

describe('calls ringing and in progress', () => {
  it('a callback rings, then is in progress once the visitor is connected, then is gone when it ends', async () => {
    const visitor = '+14155550161';
    const res = await h.callback(install.key, { phone: visitor, name: 'Lia Live' });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    await h.run(1000);

    const ringing = await live(h.seed.a.businessAdmin.email);
    expect(ringing.calls).toEqual([
      expect.objectContaining({
        id: callId,
        install_id: install.id,
        install_name: expect.stringMatching(/^Site /),
        kind: 'callback',
        state: 'ringing',
        visitor_phone: visitor,
        visitor_name: 'Lia Live',
        agent_name: null,
      }),
    ]);
    expect(ringing.calls[0]).not.toHaveProperty('business_id');

    // The agency's admin sees it too, with whose it is; another business and another agency do not.
    const agency = await live(h.seed.a.agencyAdmin.email);
    expect(agency.calls).toEqual([
      expect.objectContaining({
        id: callId,
        state: 'ringing',
        business_id: h.seed.a.business.id,
        business_name: 'Business A',
      }),
    ]);
    expect((await live(h.seed.b.businessAdmin.email)).calls).toEqual([]);
    expect((await live(h.seed.b.agencyAdmin.email)).calls).toEqual([]);

    await staffTakes(h, STAFF_1);
    h.sandbox.phones.answer(visitor);
    await h.run(1000);
    const connected = await live(h.seed.a.businessAdmin.email);
    expect(connected.calls).toEqual([
      expect.objectContaining({ id: callId, state: 'in_progress', agent_name: 'Front desk' }),
    ]);
    expect(Date.parse(connected.calls[0]?.since as string)).toBeGreaterThan(
      Date.parse(ringing.calls[0]?.since as string),
    );

    h.sandbox.phones.hangUp(visitor);
    await h.run(2000);
    const [row] = (await h.t.pool.query('select outcome from calls where id = $1', [callId])).rows;
    expect(row.outcome).toBe('completed');
    expect((await live(h.seed.a.businessAdmin.email)).calls).toEqual([]);
    expect((await live(h.seed.a.agencyAdmin.email)).calls).toEqual([]);
  });

  it('is for who reads the dashboards: a business user without analytics and an admin are refused', async () => {
    for (const email of [h.seed.a.businessUser.email, h.seed.a.agencyUser.email, h.seed.admin.email]) {
      const res = await h.t.app.inject({ url: '/api/v1/live-data', headers: bearer(await h.token(email)) });
      expect(res.statusCode, `${email}: ${res.body}`).toBe(403);
    }
    expect((await h.t.app.inject({ url: '/api/v1/live-data' })).statusCode).toBe(401);
  });
});

describe('visitors with the widget open', () => {
  it('a heartbeat counts the visitor for its install, cross-origin; closing removes it; no other tenant sees it', async () => {
    const preflight = await h.t.app.inject({
      method: 'OPTIONS',
      url: `/api/widget/v1/presence?key=${install.key}&visitor=tab-aaaa-1111&open=1`,
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(ORIGIN);

    const open = await beat(install.key, 'tab-aaaa-1111');
    expect(open.statusCode, open.body).toBe(200);
    expect(open.json()).toEqual({ success: true, data: { open: true } });
    expect(open.headers['access-control-allow-origin']).toBe(ORIGIN);
    // A beacon (no-cors) may read it too, or the page's console shows it blocked.
    expect(open.headers['cross-origin-resource-policy']).toBe('cross-origin');
    // A second beat of the same tab is the same visitor.
    expect((await beat(install.key, 'tab-aaaa-1111')).statusCode).toBe(200);
    expect((await beat(install.key, 'tab-bbbb-2222')).statusCode).toBe(200);

    const a = await live(h.seed.a.businessAdmin.email);
    expect(a.visitors).toEqual({
      total: 2,
      by_install: [{ install_id: install.id, install_name: expect.stringMatching(/^Site /), count: 2 }],
    });
    const agency = await live(h.seed.a.agencyAdmin.email);
    expect(agency.visitors.by_install).toEqual([
      expect.objectContaining({ install_id: install.id, count: 2, business_name: 'Business A' }),
    ]);
    expect((await live(h.seed.b.businessAdmin.email)).visitors).toEqual({ total: 0, by_install: [] });
    expect((await live(h.seed.b.agencyAdmin.email)).visitors).toEqual({ total: 0, by_install: [] });

    const closed = await beat(install.key, 'tab-aaaa-1111', '0');
    expect(closed.json()).toEqual({ success: true, data: { open: false } });
    expect((await live(h.seed.a.businessAdmin.email)).visitors.total).toBe(1);

    // A visitor not seen for longer than the window no longer counts.
    await h.t.pool.query(
      "update widget_presence set seen_at = now() - interval '76 seconds' where visitor_id = 'tab-bbbb-2222'",
    );
    expect((await live(h.seed.a.businessAdmin.email)).visitors).toEqual({ total: 0, by_install: [] });
  });

  it('refuses a bad visitor id and an unknown key', async () => {
    expect((await beat(install.key, 'x')).statusCode).toBe(422);
    expect((await beat('nope', 'tab-cccc-3333')).statusCode).toBe(401);
  });
});

describe('live_data over the realtime socket', () => {
  it("reaches the business's and its agency's sockets when a call starts and when a visitor opens, not another's", async () => {
    const business = await openSocket(h.t.app, await h.token(h.seed.a.businessAdmin.email));
    const agency = await openSocket(h.t.app, await h.token(h.seed.a.agencyAdmin.email));
    const other = await openSocket(h.t.app, await h.token(h.seed.b.businessAdmin.email));
    const otherAgency = await openSocket(h.t.app, await h.token(h.seed.b.agencyAdmin.email));
    const heard = (s: { got: { type: string }[] }) => s.got.filter((m) => m.type === 'live_data').length;
    try {
      const res = await h.callback(install.key, { phone: '+14155550162' });
      expect(res.statusCode, res.body).toBe(200);
      await expect.poll(() => heard(business)).toBeGreaterThan(0);
      await expect.poll(() => heard(agency)).toBeGreaterThan(0);

      // A visitor opening the widget is news too.
      const before = heard(business);
      await new Promise((r) => setTimeout(r, 400));
      expect((await beat(install.key, 'tab-dddd-4444')).statusCode).toBe(200);
      await expect.poll(() => heard(business)).toBeGreaterThan(before);
      // A beat of a panel already open is not.
      await new Promise((r) => setTimeout(r, 400));
      const steady = heard(business);
      expect((await beat(install.key, 'tab-dddd-4444')).statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 500));
      expect(heard(business)).toBe(steady);

      expect(heard(other)).toBe(0);
      expect(heard(otherAgency)).toBe(0);
    } finally {
      for (const s of [business, agency, other, otherAgency]) s.ws.close();
      await h.run(60_000);
    }
  });
});
