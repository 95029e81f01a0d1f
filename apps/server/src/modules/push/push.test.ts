import { createPublicKey, verify } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { rows, snapshot, useSuite } from '../../../test/helpers.ts';
import { isSealed } from '../../platform/secrets.ts';
import { browser } from './test-support.ts';
import { encryptPayload, generateVapidKeys, vapidAuthorization } from './webpush.ts';

function verifyVapid(header: string, publicKey: string, audience: string) {
  const m = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  expect(m).not.toBeNull();
  const [h, c, s] = (m?.[1] ?? '').split('.');
  expect(m?.[2]).toBe(publicKey);
  const pub = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    format: 'jwk',
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: pub.subarray(1, 33).toString('base64url'),
      y: pub.subarray(33).toString('base64url'),
    },
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${c}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s ?? '', 'base64url'),
  );
  expect(ok).toBe(true);
  const claims = JSON.parse(Buffer.from(c ?? '', 'base64url').toString());
  expect(claims.aud).toBe(audience);
  expect(claims.sub).toMatch(/^mailto:/);
}

describe('Web Push protocol (RFC 8291, RFC 8292)', () => {
  it('encrypts a payload the browser decrypts, and signs a VAPID token its public key verifies', () => {
    const b = browser();
    const sub = b.subscription('https://push.example.com/send/abc');
    const body = encryptPayload(sub, Buffer.from('{"title":"hi"}'));
    expect(b.decrypt(body)).toBe('{"title":"hi"}');
    const keys = generateVapidKeys();
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    verifyVapid(
      vapidAuthorization(sub.endpoint, keys, 'mailto:a@b.c'),
      keys.publicKey,
      'https://push.example.com',
    );
  });
});

const c = useSuite();
const base = '/api/v1/pusher';

/**
 * A local push service recording what it is sent (410 Gone for `/gone`), with browsers subscribed to it
 * as `[path, business, user]`, stored as a browser's would be (plain http here).
 */
async function pushService(subscriptions: (readonly [string, number, number])[]) {
  const b = browser();
  const got: { headers: IncomingMessage['headers']; body: Buffer; path: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks), path: req.url ?? '' });
      res.statusCode = req.url === '/gone' ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await c.t.pool.query('delete from push_subscriptions');
  for (const [path, business, user] of subscriptions) {
    const s = b.subscription(`${origin}${path}`);
    await c.t.pool.query(
      'insert into push_subscriptions (user_id, business_id, endpoint, p256dh, auth) values ($1, $2, $3, $4, $5)',
      [user, business, s.endpoint, s.keys.p256dh, s.keys.auth],
    );
  }
  return { origin, got, decrypt: b.decrypt, close: () => server.close() };
}

describe('push registration (api/v1/pusher/beams-auth)', () => {
  it('stores the VAPID keys once at start, the private key sealed; the public key is served', async () => {
    const stored = await rows(c.t, 'select public_key, private_key from push_vapid_keys');
    expect(stored).toHaveLength(1);
    expect(isSealed(stored[0]?.private_key)).toBe(true);
    const res = await c.api.get(await c.token(c.seed.a.businessAdmin.email), `${base}/vapid-key`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.public_key).toBe(stored[0]?.public_key);
  });

  it("registers the user's browser once per endpoint; refuses bad input and other roles", async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const sub = browser().subscription('https://push.example.com/send/one');
    const first = await c.api.post(token, `${base}/beams-auth`, { subscription: sub });
    expect(first.statusCode, first.body).toBe(200);
    const again = await c.api.post(token, `${base}/beams-auth`, { subscription: sub });
    expect(again.json().data.id).toBe(first.json().data.id);
    expect(await rows(c.t, 'select user_id, business_id from push_subscriptions')).toEqual([
      { user_id: c.seed.a.businessAdmin.id, business_id: c.seed.a.business.id },
    ]);

    const before = await snapshot(c.t.pool, ['push_subscriptions']);
    const bad = await c.api.post(token, `${base}/beams-auth`, {
      subscription: { endpoint: 'http://insecure.example.com/x', keys: { p256dh: 'a', auth: 'b' } },
    });
    expect(bad.statusCode, bad.body).toBe(422);
    const agency = await c.api.post(await c.token(c.seed.a.agencyAdmin.email), `${base}/beams-auth`, {
      subscription: browser().subscription('https://push.example.com/send/two'),
    });
    expect(agency.statusCode).toBe(403);
    expect((await c.api.post(null, `${base}/beams-auth`, { subscription: sub })).statusCode).toBe(401);
    expect(await snapshot(c.t.pool, ['push_subscriptions'])).toEqual(before);
  });

  it('a text in pushes an encrypted notification to the browsers of those who may see it, and drops gone ones', async () => {
    const { a, b: other } = c.seed;
    const push = await pushService([
      ['/live', a.business.id, a.businessAdmin.id],
      ['/gone', a.business.id, a.businessAdmin.id],
      ['/sales', a.business.id, a.businessUser.id],
      ['/other', other.business.id, a.businessAdmin.id],
    ]);
    const { got, origin } = push;
    try {
      // A conversation of business A nobody is assigned to: its inbox.all users see it, a sales user not.
      const [contact] = await rows(
        c.t,
        `insert into contacts (agency_id, business_id, phone, first_name, source)
         values ($1, $2, '+14155550999', 'Dana', 'sms') returning id`,
        [a.agency.id, a.business.id],
      );
      const [message] = await rows(
        c.t,
        `insert into messages (agency_id, business_id, contact_id, direction, body, status, from_number, to_number)
         values ($1, $2, $3, 'in', 'Is the office open?', 'received', '+14155550999', '+15005550006') returning id`,
        [a.agency.id, a.business.id, contact?.id],
      );
      await c.t.app.deps.events.deliver(
        'message.received',
        {
          messageId: message?.id,
          agencyId: a.agency.id,
          businessId: a.business.id,
          contactId: contact?.id,
          installId: 7,
          newContact: true,
          keyword: null,
          body: 'Hello',
        },
        { tenant: { level: 'platform' }, by: { kind: 'system', source: 'carrier', name: 'test' } },
      );
      expect(got.map((g) => g.path).sort()).toEqual(['/gone', '/live']);
      const live = got.find((g) => g.path === '/live');
      expect(live?.headers['content-encoding']).toBe('aes128gcm');
      verifyVapid(
        String(live?.headers.authorization),
        (await rows(c.t, 'select public_key from push_vapid_keys'))[0]?.public_key,
        origin,
      );
      const payload = JSON.parse(push.decrypt(live?.body ?? Buffer.alloc(0)));
      expect(payload).toMatchObject({
        title: 'Dana',
        body: 'Is the office open?',
        url: '/business/messaging/7',
        tag: `contact-${contact?.id}`,
      });
      expect(
        (await rows(c.t, 'select endpoint from push_subscriptions order by endpoint')).map((r) => r.endpoint),
      ).toEqual([`${origin}/live`, `${origin}/other`, `${origin}/sales`]);
    } finally {
      push.close();
    }
  });
  it("an automation's staff alert (notifications' staffAlerted) pushes to the named users' browsers", async () => {
    const { a, b: other } = c.seed;
    const push = await pushService([
      ['/admin', a.business.id, a.businessAdmin.id],
      ['/sales', a.business.id, a.businessUser.id],
      ['/other', other.business.id, a.businessAdmin.id],
    ]);
    const { got } = push;
    try {
      await c.t.app.deps.events.deliver(
        'notifications.staff_alerted',
        {
          agencyId: a.agency.id,
          businessId: a.business.id,
          userIds: [a.businessAdmin.id],
          title: 'Price request',
          body: 'Ann asked for prices',
          url: '/business/contacts',
          tag: 'automation-1-contact-2',
        },
        { tenant: { level: 'platform' }, by: { kind: 'system', source: 'automation', name: 'test' } },
      );
      expect(got.map((g) => g.path)).toEqual(['/admin']);
      expect(JSON.parse(push.decrypt(got[0]?.body ?? Buffer.alloc(0)))).toMatchObject({
        title: 'Price request',
        body: 'Ann asked for prices',
        url: '/business/contacts',
        tag: 'automation-1-contact-2',
      });
    } finally {
      push.close();
    }
  });
});
