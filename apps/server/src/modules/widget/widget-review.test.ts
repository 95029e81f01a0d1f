// The widget's server as an attacker would use it (ADR 041, "Review"), over HTTP on a real database and
// the sandbox carrier: a visitor token never shows the business's earlier messages with a phone someone
// typed in; visitor tokens stay out of the request logs; premium-rate and far-away numbers are never
// called or texted on a visitor's word; bodies are small; only the widget tree answers cross-origin; and
// a number moved to another install takes its texts there at once.

import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp } from '../../../test/helpers.ts';
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';

let h: Telephony;
const lines: string[] = [];
const PUBLIC = 'http://localhost:3000';
const SITE = 'https://dental.example.test';

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const get = (key: string, url: string) =>
  h.t.app.inject({
    method: 'GET',
    url: `/api/widget${url}`,
    headers: { 'x-install-key': key, origin: SITE },
  });
const post = (key: string, url: string, payload: unknown, ip?: string) =>
  h.t.app.inject({
    method: 'POST',
    url: `/api/widget${url}`,
    headers: { 'x-install-key': key, origin: SITE },
    payload: payload as Record<string, unknown>,
    ...(ip ? { remoteAddress: ip } : {}),
  });

/** An install whose number also receives texts in the sandbox. */
async function textingInstall() {
  const install = await h.install();
  const [{ phone_number: number }] = await rows('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
  // The sandbox learns the number, as at start (texts to it reach the product).
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
  return { ...install, number: number as string };
}

/** The install's widget type set by its business, through the install's settings (as its screen does). */
async function widgetType(installId: number, type: number) {
  const res = await h.t.app.inject({
    method: 'PUT',
    url: `/api/v1/installs/${installId}/setting`,
    headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
    payload: { settings: { widget_type: type } },
  });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  const clock = new ManualClock(Date.now());
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const t = await createTestApp(
    {
      // The default: callbacks and first texts at most 10 a minute per address.
      WIDGET_RATE_PER_ADDRESS: '120',
      WIDGET_RATE_PER_INSTALL: '100000',
      PUBLIC_URL: PUBLIC,
    },
    { sandboxClock: clock, logger },
  );
  h = await telephonyApp({}, { clock, t });
});
afterAll(async () => {
  await h?.close();
  await h?.t.close();
});

describe('the visitor token', () => {
  it('shows only what followed the visitor’s own text, never the business’s earlier messages with that phone', async () => {
    const install = await textingInstall();
    const owner = '+14155553101';
    h.sandbox.phones.sendText(owner, install.number, 'Are my lab results in?');
    await h.run(2000);
    expect(await rows('select body from messages where from_number = $1', [owner])).toHaveLength(1);

    // Someone else types the owner's number into the widget.
    const res = await post(install.key, '/v1/text', { phone: owner, message: 'Hi, who is this?' });
    expect(res.statusCode, res.body).toBe(200);
    const { token } = res.json().data as { token: string };
    const conv = await get(install.key, `/v1/conversation?token=${encodeURIComponent(token)}`);
    expect(conv.statusCode, conv.body).toBe(200);
    const bodies = (conv.json().data.messages as { body: string }[]).map((m) => m.body);
    expect(bodies).toContain('Hi, who is this?');
    expect(bodies).not.toContain('Are my lab results in?');
  });

  it('shows a visitor only their own widget texts until they enter the code texted to the phone (issue 17)', async () => {
    const install = await textingInstall();
    const owner = '+14155553110';
    const text = async (message: string) => {
      const res = await post(install.key, '/v1/text', { phone: owner, message });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({ verified: false, code_sent: true });
      return res.json().data.token as string;
    };
    const bodiesOf = async (token: string) => {
      const res = await get(install.key, `/v1/conversation?token=${encodeURIComponent(token)}`);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.messages as { body: string }[]).map((m) => m.body);
    };
    // Someone types the owner's number into the widget; then the owner texts the business from their
    // phone, and the business answers; then a second visitor types the same number.
    const first = await text('First visitor here');
    await h.run(2000);
    h.sandbox.phones.sendText(owner, install.number, 'My own private question');
    await h.run(2000);
    const [contact] = await rows('select id from contacts where phone = $1', [owner]);
    const answer = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/contacts/${contact.id}/messages`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { body: 'Answer to the owner' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const second = await text('Second visitor here');
    await h.run(2000);

    // Each holder sees what they typed, nothing of the phone's own texts, the business's answers or the
    // other visitor's thread.
    expect(await bodiesOf(first)).toEqual(['First visitor here']);
    expect(await bodiesOf(second)).toEqual(['Second visitor here']);

    // The phone's holder has the codes (one per conversation, by SMS) and sees the conversation with one.
    const codes = h.sandbox.phones
      .get(owner)
      .texts.map((t) => /(\d{6}) is your code/.exec(t.body)?.[1])
      .filter((c): c is string => !!c);
    expect(codes).toHaveLength(2);
    const proven = await post(install.key, '/v1/text/verify', { token: first, code: codes[0] });
    expect(proven.statusCode, proven.body).toBe(200);
    const all = await bodiesOf(proven.json().data.token);
    expect(all).toEqual(
      expect.arrayContaining(['First visitor here', 'My own private question', 'Answer to the owner']),
    );
    // One conversation's code does not open another.
    const crossed = await post(install.key, '/v1/text/verify', { token: second, code: codes[0] });
    if (codes[0] !== codes[1]) expect(crossed.statusCode).toBe(422);

    // Guessing is bounded per phone: a few wrong codes, then a 429 however many conversations are started.
    const codesTried: number[] = [];
    for (let i = 0; i < 5; i++)
      codesTried.push(
        (await post(install.key, '/v1/text/verify', { token: second, code: '000000' })).statusCode,
      );
    expect(codesTried.slice(0, 3)).toEqual([422, 422, 422]);
    expect(codesTried).toContain(429);
    const wrong = await post(install.key, '/v1/text/verify', { token: second, code: '000001' });
    expect(wrong.statusCode).toBe(429);
    expect(wrong.json().message).toMatch(/Too many wrong codes/);
    // A tampered token that claims to be proven is refused.
    const [v, payload, sig] = second.split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    const forged = `${v}.${Buffer.from(JSON.stringify({ ...claims, v: 1 })).toString('base64url')}.${sig}`;
    expect((await get(install.key, `/v1/conversation?token=${encodeURIComponent(forged)}`)).statusCode).toBe(
      401,
    );
  });

  it('never reaches a request log line (the token in the URL is redacted)', async () => {
    const install = await textingInstall();
    const res = await post(install.key, '/v1/text', { phone: '+14155553102', message: 'Hello' });
    const { token } = res.json().data as { token: string };
    const signature = token.slice(token.lastIndexOf('.') + 1);
    lines.length = 0;
    const conv = await get(install.key, `/v1/conversation?token=${encodeURIComponent(token)}`);
    expect(conv.statusCode).toBe(200);
    const logged = lines.join('\n');
    expect(logged).toContain('/api/widget/v1/conversation?token=[redacted]');
    expect(logged).not.toContain(signature);
  });
});

describe('costs: who the business calls and texts on a visitor’s word', () => {
  it.each([
    ['a US premium-rate number', '+19005551234', /premium-rate/],
    ['a British premium-rate number', '+449098790000', /premium-rate/],
    ['a British personal (forwarding) number', '+447024000000', /premium-rate/],
    ['a number of a country the agency does not allow', '+4915112345678', /this country/],
  ])('calls and texts not %s', async (_name, phone, message) => {
    const install = await textingInstall();
    const before = await rows('select count(*)::int as n from calls');
    const call = await post(install.key, '/v1/callback', { phone });
    expect(call.statusCode, call.body).toBe(422);
    expect(call.json().errors.phone[0]).toMatch(message);
    const scheduled = await post(install.key, '/v1/schedule', {
      phone,
      scheduled_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
    });
    expect(scheduled.statusCode, scheduled.body).toBe(422);
    expect(await rows('select count(*)::int as n from calls')).toEqual(before);

    const text = await post(install.key, '/v1/text', { phone, message: 'Call me' });
    expect(text.statusCode, text.body).toBe(422);
    expect(text.json().errors.phone[0]).toMatch(message);
    expect(await rows('select id from messages where from_number = $1 or to_number = $1', [phone])).toEqual(
      [],
    );
    expect(await rows('select id from contacts where phone = $1', [phone])).toEqual([]);
  });

  it('calls and texts a country other than the US and Canada when the agency allows it', async () => {
    const install = await textingInstall();
    const phone = '+447400123456';
    const refused = await post(install.key, '/v1/callback', { phone });
    expect(refused.statusCode).toBe(422);
    await h.t.pool.query(`update agencies set allowed_countries = '["US","CA","GB"]' where id = $1`, [
      h.seed.a.agency.id,
    ]);
    try {
      const ok = await post(install.key, '/v1/callback', { phone });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.status).toBe('calling');
      const text = await post(install.key, '/v1/text', { phone, message: 'Hello from London' });
      expect(text.statusCode, text.body).toBe(200);
    } finally {
      await h.t.pool.query(`update agencies set allowed_countries = '["US","CA"]' where id = $1`, [
        h.seed.a.agency.id,
      ]);
      await h.run(120_000);
    }
  });
});

describe('costs: parallel requests', () => {
  it('place no more calls than the month allows, however many arrive at once', async () => {
    const install = await textingInstall();
    const business = h.seed.a.business.id;
    await h.t.pool.query('update businesses set calls = number_of_calls + 2 where id = $1', [business]);
    try {
      const before = await rows('select count(*)::int as n from calls where business_id = $1', [business]);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          post(install.key, '/v1/callback', { phone: `+1415555${3200 + i}` }, '10.9.0.1'),
        ),
      );
      const codes = answers.map((a) => a.statusCode).sort();
      expect(codes).toEqual([200, 200, 403, 403, 403, 403, 403, 403]);
      const after = await rows('select count(*)::int as n from calls where business_id = $1', [business]);
      expect(after[0].n - before[0].n).toBe(2);
    } finally {
      await h.t.pool.query('update businesses set calls = 0 where id = $1', [business]);
      await h.run(120_000);
    }
  });

  it('start one callback for one phone, however many arrive at once', async () => {
    const install = await textingInstall();
    const phone = '+14155553300';
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => post(install.key, '/v1/callback', { phone }, '10.9.0.2')),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(await rows('select id from calls where visitor_phone = $1', [phone])).toHaveLength(1);
    await h.run(120_000);
  });

  it('let one address start at most 10 conversations a minute, whatever phones it types', async () => {
    const install = await textingInstall();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(install.key, '/v1/text', { phone: `+1415555${3400 + i}`, message: 'hi' }, '10.9.0.3'),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(2);
    expect(refused[0]?.json().message).toMatch(/Too many messages/);
    // Another address is not held back by it.
    const other = await post(install.key, '/v1/text', { phone: '+14155553499', message: 'hi' }, '10.9.0.4');
    expect(other.statusCode, other.body).toBe(200);
  });
});

describe('costs: booked calls and replies', () => {
  const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  it('books at most 3 waiting calls for one phone, and 10 a minute from one address', async () => {
    const install = await textingInstall();
    const phone = '+14155553600';
    const codes: number[] = [];
    for (let i = 1; i <= 4; i++)
      codes.push(
        (await post(install.key, '/v1/schedule', { phone, scheduled_at: later(i) }, '10.9.1.1')).statusCode,
      );
    expect(codes).toEqual([200, 200, 200, 429]);
    const refused = await post(install.key, '/v1/schedule', { phone, scheduled_at: later(5) }, '10.9.1.2');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/already has calls booked/);
    expect(await rows('select id from calls where visitor_phone = $1', [phone])).toHaveLength(3);

    const many = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post(
          install.key,
          '/v1/schedule',
          { phone: `+1415555${3610 + i}`, scheduled_at: later(2) },
          '10.9.1.3',
        ),
      ),
    );
    expect(many.filter((a) => a.statusCode === 200)).toHaveLength(10);
    expect(many.filter((a) => a.statusCode === 429)).toHaveLength(2);
  });

  it('refuses a reply once texting is switched off, and opens no stream for a decoy token', async () => {
    const install = await textingInstall();
    const res = await post(install.key, '/v1/text', { phone: '+14155553700', message: 'hi' });
    const { token } = res.json().data as { token: string };
    // Its business switches texting off (call only), as the install's settings screen does.
    await widgetType(install.id, 1);
    const reply = await post(install.key, '/v1/text/reply', { token, message: 'still there?' });
    expect(reply.statusCode, reply.body).toBe(403);
    expect(await rows('select id from messages where body = $1', ['still there?'])).toEqual([]);

    await widgetType(install.id, 3);
    const decoy = await post(install.key, '/v1/text', {
      phone: '+14155553701',
      message: 'buy now',
      website: 'https://spam.example',
    });
    const decoyToken = (decoy.json().data as { token: string }).token;
    const stream = await get(install.key, `/v1/events?token=${encodeURIComponent(decoyToken)}`);
    expect(stream.statusCode).toBe(401);
  });
});

describe('input', () => {
  it('refuses a body larger than a widget request can be, and stores nothing', async () => {
    const install = await textingInstall();
    const res = await post(install.key, '/v1/text', {
      phone: '+14155553103',
      message: 'hi',
      padding: 'x'.repeat(100_000),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().success).toBe(false);
    expect(await rows('select id from contacts where phone = $1', ['+14155553103'])).toEqual([]);
  });
});

describe('input sizes', () => {
  it('refuses each oversized field, key and token with a clear answer, and stores nothing', async () => {
    const install = await textingInstall();
    const phone = '+14155553500';
    for (const [field, value] of [
      ['name', 'N'.repeat(101)],
      ['email', `${'e'.repeat(190)}@example.test`],
      ['message', 'm'.repeat(1601)],
      ['website', 'w'.repeat(501)],
      ['phone', '1'.repeat(41)],
    ] as const) {
      const res = await post(install.key, '/v1/text', { phone, message: 'hi', [field]: value });
      expect(res.statusCode, field).toBe(422);
      expect(res.json().errors[field], field).toBeDefined();
    }
    expect(await rows('select id from contacts where phone = $1', [phone])).toEqual([]);

    const longKey = await h.t.app.inject({
      method: 'GET',
      url: '/api/widget/v1/config',
      headers: { 'x-install-key': 'k'.repeat(5000), origin: SITE },
    });
    expect(longKey.statusCode).toBe(401);
    expect(longKey.json().message).toMatch(/install key/);
    const longToken = await get(install.key, `/v1/conversation?token=${'t'.repeat(1001)}`);
    expect(longToken.statusCode).toBe(422);
    const days = await get(install.key, '/v1/slots?days=100000');
    expect(days.statusCode).toBe(422);
  });

  it('refuses a token with anything appended, and never lets a cache keep a conversation', async () => {
    const install = await textingInstall();
    const res = await post(install.key, '/v1/text', { phone: '+14155553501', message: 'hi' }, '10.9.2.1');
    const { token } = res.json().data as { token: string };
    const ok = await get(install.key, `/v1/conversation?token=${encodeURIComponent(token)}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const appended = await get(install.key, `/v1/conversation?token=${encodeURIComponent(`${token}.x`)}`);
    expect(appended.statusCode).toBe(401);
    expect(appended.json().message).toMatch(/not valid/);
  });
});

describe('CORS', () => {
  it('only the widget tree with a valid key grants the calling origin, never with credentials', async () => {
    const install = await textingInstall();
    const ok = await get(install.key, '/v1/config');
    expect(ok.headers['access-control-allow-origin']).toBe(SITE);
    expect(ok.headers['access-control-allow-credentials']).toBeUndefined();
    const badKey = await get('nope', '/v1/config');
    expect(badKey.statusCode).toBe(401);
    expect(badKey.headers['access-control-allow-origin']).toBeUndefined();
    for (const [method, url] of [
      ['OPTIONS', '/api/v1/auth/login'],
      ['POST', '/api/v1/auth/login'],
      ['GET', '/api/v1/profile'],
      ['GET', '/api/v1/installs'],
    ] as const) {
      const res = await h.t.app.inject({
        method,
        url,
        headers: {
          origin: SITE,
          'access-control-request-method': 'POST',
          ...bearer(await h.token(h.seed.a.businessAdmin.email)),
        },
        ...(method === 'POST' ? { payload: { email: 'x@example.test', password: 'nope' } } : {}),
      });
      expect(res.headers['access-control-allow-origin'], `${method} ${url}`).toBeUndefined();
      expect(res.headers['access-control-allow-credentials'], `${method} ${url}`).toBeUndefined();
    }
  });
});

describe('a number moved to another install', () => {
  it('takes the very next text to the new install (the cache of who answers it is cleared)', async () => {
    const from = await textingInstall();
    const to = await h.install({}, { number: null });
    const phone = '+14155553104';
    h.sandbox.phones.sendText(phone, from.number, 'first');
    await h.run(1000);
    const [first] = await rows('select install_id from messages where from_number = $1 and body = $2', [
      phone,
      'first',
    ]);
    expect(first?.install_id).toBe(from.id);

    const [{ id: numberId }] = await rows('select id from numbers where phone_number = $1', [from.number]);
    const moved = await h.t.app.inject({
      method: 'PUT',
      url: `/api/v1/numbers/${numberId}`,
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: { install_id: to.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);

    h.sandbox.phones.sendText(phone, from.number, 'second');
    await h.run(1000);
    const [second] = await rows('select install_id from messages where from_number = $1 and body = $2', [
      phone,
      'second',
    ]);
    expect(second?.install_id).toBe(to.id);
  });
});
