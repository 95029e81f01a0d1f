// Media of inbound MMS (ADR 049): fetched only from the carrier's own hosts (the sandbox's, in process),
// never from an address a signed webhook names elsewhere (loopback, private, metadata, another host), and
// fetched once however many duplicates of the webhook arrive together.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs, login, openSocket } from '../../../test/helpers.ts';
import { twilioSignature } from '../../platform/webhooks/tree.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';

const PUBLIC = 'http://localhost:3000';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let h: Telephony;
let number: string;
let accountSid: string;
/** A server on 127.0.0.1 standing for anything inside: it counts every connection made to it. */
let inside: http.Server;
let insideBase: string;
let insideConnections = 0;

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const sid = () => `SM${crypto.randomBytes(16).toString('hex')}`;

/** A held media download: `fetching` once the carrier is asked, the bytes once `release` is called. */
function heldMedia() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const held = { started: 0, url: '', release: () => release() };
  held.url = h.sandbox.addMedia(accountSid, 'image/png', async () => {
    held.started++;
    await gate;
    return PNG;
  });
  return held;
}

async function post(params: Record<string, string>) {
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!account) throw new Error('no account');
  const body = { AccountSid: account.accountSid, ...params };
  const path = '/webhooks/twilio/sms-in';
  return h.t.app.inject({
    method: 'POST',
    url: path,
    headers: {
      host: 'localhost:3000',
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioSignature(account.authToken, `${PUBLIC}${path}`, body),
    },
    payload: new URLSearchParams(body).toString(),
  });
}

const mms = (from: string, urls: string[], messageSid = sid()) => ({
  MessageSid: messageSid,
  From: from,
  To: number,
  Body: 'see attached',
  NumMedia: String(urls.length),
  ...Object.fromEntries(
    urls.flatMap((u, i) => [
      [`MediaUrl${i}`, u],
      [`MediaContentType${i}`, 'image/png'],
    ]),
  ),
});

/** Files in the business's message folder of the local store. */
function storedFiles(): string[] {
  const dir = path.join(h.t.config.dataDir, 'uploads', 'messages', String(h.seed.a.business.id));
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

beforeAll(async () => {
  h = await telephonyApp();
  // The webhooks below are posted as the carrier would: the number is known from our own rows.
  const install = await h.install();
  number = (await rows('select phone_number from numbers where install_id = $1', [install.id]))[0]
    .phone_number;
  accountSid = (await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id))?.accountSid ?? '';
  inside = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(PNG);
  });
  inside.on('connection', () => {
    insideConnections++;
  });
  await new Promise<void>((r) => inside.listen(0, '127.0.0.1', r));
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  insideBase = `http://127.0.0.1:${(inside.address() as AddressInfo).port}`;
});
afterAll(async () => {
  inside?.close();
  await h?.close();
});

describe('inbound MMS media', () => {
  it('a burst of MMS larger than the pool is answered at once and all end with their media', async () => {
    const n = 12; // the app's pool has 4 connections in tests
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let started = 0;
    const slow = async () => {
      started++;
      await gate;
      return PNG;
    };
    try {
      const sent = Array.from({ length: n }, (_, i) =>
        mms(`+141555509${String(i).padStart(2, '0')}`, [h.sandbox.addMedia(accountSid, 'image/png', slow)]),
      );
      // Every webhook is answered while the carrier's media server hangs.
      const answers = await Promise.race([
        Promise.all(sent.map((p) => post(p))),
        new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
      ]);
      expect(answers?.map((a) => a.statusCode)).toEqual(sent.map(() => 200));
      await expect.poll(() => started, { timeout: 10_000 }).toBeGreaterThan(0);
      // No transaction waits on the hanging media server: while it hangs (the gate stays shut), every
      // connection comes out of its transaction. A listener's short transaction (a broadcast reply's
      // lookup) may be seen mid-way, so this waits for the state; one held across the fetch never ends.
      const idleInTransaction = async () =>
        (
          await rows(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and state like 'idle in transaction%'`,
          )
        )[0].n;
      await expect.poll(idleInTransaction, { timeout: 10_000 }).toBe(0);
      release();
      await drainJobs(h.t, 60_000);
      const got = await rows('select carrier_sid, media from messages where carrier_sid = any($1)', [
        sent.map((p) => p.MessageSid),
      ]);
      expect(got).toHaveLength(n);
      for (const m of got) expect(m.media, m.carrier_sid).toHaveLength(1);
    } finally {
      release();
    }
  });

  it('answers the carrier and holds no transaction while a slow media is fetched; the image follows', async () => {
    const from = '+14155550804';
    const held = heldMedia();
    const { ws, got } = await openSocket(h.t.app, await login(h.t.app, h.seed.a.businessAdmin.email));
    try {
      const params = mms(from, [held.url]);
      const answering = post(params);
      await expect.poll(() => held.started, { timeout: 10_000 }).toBeGreaterThan(0);
      // The carrier is answered without waiting for the media.
      const answer = await Promise.race([
        answering,
        new Promise<null>((r) => setTimeout(() => r(null), 5_000)),
      ]);
      expect(answer?.statusCode).toBe(200);
      // No connection sits in a transaction while the download hangs.
      // No transaction waits on the hanging media server: while it hangs (the gate stays shut), every
      // connection comes out of its transaction. A listener's short transaction (a broadcast reply's
      // lookup) may be seen mid-way, so this waits for the state; one held across the fetch never ends.
      const idleInTransaction = async () =>
        (
          await rows(
            `select count(*)::int as n from pg_stat_activity
              where datname = current_database() and state like 'idle in transaction%'`,
          )
        )[0].n;
      await expect.poll(idleInTransaction, { timeout: 10_000 }).toBe(0);
      // A plain text from the same phone is stored at once (the contact's row is not locked).
      const text = { MessageSid: sid(), From: from, To: number, Body: 'and another thing' };
      expect((await post(text)).statusCode).toBe(200);
      const [m] = await rows('select * from messages where carrier_sid = $1', [params.MessageSid]);
      expect(m.media).toEqual([]);
      expect(m.media_pending).toBe(1);
      held.release();
      await drainJobs(h.t, 30_000);
      const [after] = await rows('select * from messages where carrier_sid = $1', [params.MessageSid]);
      expect(after.media).toHaveLength(1);
      expect(after.media_pending).toBe(0);
      expect(after.segments).toBe(2);
      // Open inboxes learn that the message now has its image.
      await expect
        .poll(() => got.find((e) => e.type === 'message_updated' && (e.data?.id as number) === m.id)?.data, {
          timeout: 10_000,
        })
        .toMatchObject({ message: { id: m.id, media: [{ content_type: 'image/png' }], media_pending: 0 } });
    } finally {
      held.release();
      ws.close();
    }
  });

  it('retries a media the carrier cannot give yet, then shows it as unavailable, never silently empty', async () => {
    const from = '+14155550805';
    let asked = 0;
    const url = h.sandbox.addMedia(accountSid, 'image/png', async () => {
      asked++;
      throw new Error('carrier unreachable');
    });
    const params = mms(from, [url]);
    expect((await post(params)).statusCode).toBe(200);
    await drainJobs(h.t, 120_000);
    const [m] = await rows('select * from messages where carrier_sid = $1', [params.MessageSid]);
    expect(asked).toBeGreaterThan(1);
    expect(m.media).toEqual([]);
    expect(m.media_pending).toBe(0);
    expect(m.media_unavailable).toBe(1);
  }, 180_000);

  it('never fetches a media URL off the carrier: loopback, private, metadata, IPv6 forms, other hosts', async () => {
    const port = (inside.address() as AddressInfo).port;
    const from = '+14155550801';
    const before = storedFiles().length;
    const urls = [
      `${insideBase}/secret.png`,
      `http://localhost:${port}/secret.png`,
      `http://[::1]:${port}/secret.png`,
      `http://[::ffff:127.0.0.1]:${port}/secret.png`,
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://10.0.0.1/x.png',
      'http://192.168.0.1/x.png',
      'file:///etc/passwd',
    ];
    const answer = await post(mms(from, urls));
    expect(answer.statusCode).toBe(200);
    await drainJobs(h.t);
    // The text is kept, without the media, which are shown as unavailable.
    const [m] = await rows('select * from messages where from_number = $1', [from]);
    expect(m.body).toBe('see attached');
    expect(m.media).toEqual([]);
    expect(m.media_unavailable).toBe(urls.length);
    expect(insideConnections).toBe(0);
    expect(storedFiles().length).toBe(before);
  });

  it("stores the carrier's own media once, however many duplicates of the webhook arrive together", async () => {
    const from = '+14155550802';
    const before = storedFiles().length;
    const url = h.sandbox.addMedia(accountSid, 'image/png', PNG);
    const params = mms(from, [url]);
    const answers = await Promise.all([1, 2, 3].map(() => post(params)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    await drainJobs(h.t);
    const msgs = await rows('select * from messages where carrier_sid = $1', [params.MessageSid]);
    expect(msgs).toHaveLength(1);
    expect(msgs[0].media).toHaveLength(1);
    expect(msgs[0].segments).toBe(2);
    // One file in the store: the duplicates fetched and stored nothing.
    expect(storedFiles().length).toBe(before + 1);
    const file = await h.t.app.inject({ method: 'GET', url: msgs[0].media[0].url });
    expect(file.rawPayload.equals(PNG)).toBe(true);
  });

  it("refuses another account's sandbox media", async () => {
    const from = '+14155550803';
    const url = h.sandbox.addMedia(`AC${'0'.repeat(32)}`, 'image/png', PNG);
    await post(mms(from, [url]));
    await drainJobs(h.t);
    const [m] = await rows('select * from messages where from_number = $1', [from]);
    expect(m.media).toEqual([]);
  });
});
