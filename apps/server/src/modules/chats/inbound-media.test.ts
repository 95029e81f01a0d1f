// Media of inbound MMS (ADR 049): fetched only from the carrier's own hosts (the sandbox's, in process),
// never from an address a signed webhook names elsewhere (loopback, private, metadata, another host), and
// fetched once however many duplicates of the webhook arrive together.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  insideBase = `http://127.0.0.1:${(inside.address() as AddressInfo).port}`;
});
afterAll(async () => {
  inside?.close();
  await h?.close();
});

describe('inbound MMS media', () => {
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
    // The text is kept, without the media.
    const [m] = await rows('select * from messages where from_number = $1', [from]);
    expect(m.body).toBe('see attached');
    expect(m.media).toEqual([]);
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
    const [m] = await rows('select * from messages where from_number = $1', [from]);
    expect(m.media).toEqual([]);
  });
});
