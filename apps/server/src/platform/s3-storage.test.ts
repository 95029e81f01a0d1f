// Files on S3-compatible storage (STORAGE_DRIVER=s3, ADR 040), against a local S3-compatible server that
// checks SigV4 signatures strictly (test/s3-server.ts): MMS media in and out, the library, logos, .ics,
// our /uploads URLs streamed back, the carrier's MediaUrl, and start-up refusals.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, drainJobs } from '../../test/helpers.ts';
import { startTestS3, type TestS3 } from '../../test/s3-server.ts';
import { buildApp } from '../app.ts';
import { agencyCarrierAccount } from '../modules/agencies/service.ts';
import { sendMessage } from '../modules/chats/service.ts';
import {
  businessContact,
  carrierWebhook,
  type Telephony,
  telephonyApp,
} from '../modules/telephony/testing.ts';
import { ConfigError, loadConfig } from './config.ts';
import { S3Client, signRequest } from './s3.ts';
import { tenantContext } from './tenancy/context.ts';

const PUBLIC = 'http://localhost:3000';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const dataUrl = (mime: string, b: Buffer) => `data:${mime};base64,${b.toString('base64')}`;

let s3: TestS3;
let h: Telephony;
let dataDir: string;
let number: string;

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const keyOf = (url: string) => url.replace(/^\/uploads\//, '').split('?')[0] ?? '';
const localFiles = () =>
  fs.existsSync(path.join(dataDir, 'uploads'))
    ? fs.readdirSync(path.join(dataDir, 'uploads'), { recursive: true })
    : [];

async function inbound(from: string, params: Record<string, string>) {
  const res = await carrierWebhook(h, '/webhooks/twilio/sms-in', {
    MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
    From: from,
    To: number,
    Body: 'look',
    ...params,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
}

const contactOf = (phone: string) => businessContact(h, phone);

beforeAll(async () => {
  s3 = await startTestS3();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-s3-'));
  h = await telephonyApp({ ...s3.env(), DATA_DIR: dataDir });
  const install = await h.install();
  [{ phone_number: number }] = await rows('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
});
afterAll(async () => {
  await h?.close();
  await s3?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the SigV4 signer', () => {
  it("gives AWS's published signature for its GET Object example", () => {
    // docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html, "Example: GET Object".
    const headers = signRequest({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { range: 'bytes=0-9' },
      payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      region: 'us-east-1',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      date: new Date('2013-05-24T00:00:00Z'),
    });
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('is checked by the test server: a wrong secret or a body changed after signing is refused', async () => {
    const settings = {
      endpoint: new URL(s3.endpoint),
      region: s3.region,
      bucket: s3.bucket,
      accessKeyId: s3.accessKeyId,
      forcePathStyle: true,
    };
    const wrong = new S3Client({ ...settings, secretAccessKey: `${s3.secretAccessKey}x` });
    await expect(wrong.putObject('probe/a.txt', Buffer.from('a'), 'text/plain')).rejects.toMatchObject({
      code: 'SignatureDoesNotMatch',
      status: 403,
    });
    const right = new S3Client({ ...settings, secretAccessKey: s3.secretAccessKey });
    await right.putObject('probe/a b+c.txt', Buffer.from('hello'), 'text/plain');
    expect(s3.objects.get('probe/a b+c.txt')?.body.toString()).toBe('hello');
    // The same signed headers with other bytes: the payload hash no longer matches.
    const url = right.objectUrl('probe/a.txt');
    const signed = signRequest({
      method: 'PUT',
      url,
      headers: { 'content-type': 'text/plain' },
      payloadHash: crypto.createHash('sha256').update('signed').digest('hex'),
      region: s3.region,
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      date: new Date(),
    });
    const res = await fetch(url, { method: 'PUT', headers: signed, body: 'tampered' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('XAmzContentSHA256Mismatch');
    expect(s3.objects.has('probe/a.txt')).toBe(false);
    await right.deleteObject('probe/a b+c.txt');
    expect(s3.objects.has('probe/a b+c.txt')).toBe(false);
  });
});

describe('message media in the bucket', () => {
  it('streams a large file into the bucket (a recording) and back, signed with its length and hash', async () => {
    const big = crypto.randomBytes(3 * 1024 * 1024 + 7);
    const store = h.t.app.deps.storage;
    const chunks = Array.from({ length: 4 }, (_, i) =>
      big.subarray(i * 800_000, (i + 1) * 800_000 + (i === 3 ? big.length : 0)),
    );
    await store.putStream('recordings/1/RE0.wav', Readable.from(chunks), 'audio/wav');
    expect(s3.objects.get('recordings/1/RE0.wav')?.body.equals(big)).toBe(true);
    const back = await store.readStream('recordings/1/RE0.wav');
    expect(back && (await buffer(back)).equals(big)).toBe(true);
    // A stream that fails half-way stores nothing.
    const failing = Readable.from(
      (async function* () {
        yield big.subarray(0, 1000);
        throw new Error('cut at the limit');
      })(),
    );
    await expect(store.putStream('recordings/1/RE1.wav', failing, 'audio/wav')).rejects.toThrow(
      'cut at the limit',
    );
    expect(s3.objects.has('recordings/1/RE1.wav')).toBe(false);
    expect(localFiles()).toEqual([]);
  });

  it('stores an inbound MMS in the bucket (nothing on disk) and serves it back at its /uploads URL', async () => {
    const from = '+14155550901';
    const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
    // The carrier's own media (the sandbox's, fetched in process; ADR 049).
    const media = h.sandbox.addMedia(account?.accountSid ?? '', 'image/png', PNG);
    await inbound(from, { NumMedia: '1', MediaUrl0: media, MediaContentType0: 'image/png' });
    await drainJobs(h.t);
    const c = await contactOf(from);
    const [m] = await rows('select * from messages where contact_id = $1', [c.id]);
    expect(m.media).toHaveLength(1);
    const url: string = m.media[0].url;
    expect(url).toMatch(new RegExp(`^/uploads/messages/${h.seed.a.business.id}/[0-9a-f-]{36}\\.png$`));
    const obj = s3.objects.get(keyOf(url));
    expect(obj?.body.equals(PNG)).toBe(true);
    expect(obj?.contentType).toBe('image/png');
    expect(localFiles()).toEqual([]);

    const file = await h.t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['content-security-policy']).toContain('sandbox');
    const head = await h.t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(PNG.length));
    expect(head.rawPayload.length).toBe(0);
    // Ranges and revalidation work as with local files.
    const part = await h.t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-7' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(PNG.subarray(0, 8))).toBe(true);
    expect(part.headers['content-range']).toBe(`bytes 0-7/${PNG.length}`);
    const again = await h.t.app.inject({
      method: 'GET',
      url,
      headers: { 'if-none-match': String(file.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    // The contact's files list it.
    const token = await h.token(h.seed.a.businessAdmin.email);
    const files = await h.t.app.inject({
      url: `/api/v1/chats/contacts/${c.id}/files`,
      headers: bearer(token),
    });
    expect(files.json().data.map((f: { url: string }) => f.url)).toContain(url);
  });

  it('stores an outgoing image in the bucket; the carrier gets a MediaUrl it can fetch', async () => {
    const from = '+14155550902';
    await inbound(from, { NumMedia: '0', Body: 'hi' });
    const c = await contactOf(from);
    const ctx = tenantContext(
      h.t.app.deps,
      { level: 'business', agencyId: h.seed.a.agency.id, businessId: h.seed.a.business.id },
      { kind: 'system', source: 'seed', name: 'test' },
    );
    const sent = await sendMessage(ctx, {
      contactId: c.id,
      body: 'photo',
      media: [dataUrl('image/png', PNG)],
    });
    const url = sent.media[0]?.url ?? '';
    expect(s3.objects.get(keyOf(url))?.body.equals(PNG)).toBe(true);
    const atCarrier = [...h.sandbox.messages.values()].find((x) => x.body === 'photo' && x.to === from);
    expect(atCarrier?.media).toEqual([`${PUBLIC}${url}`]);
    // What the carrier fetches: our public URL, streamed from the bucket.
    const fetched = await h.t.app.inject({
      method: 'GET',
      url: new URL(atCarrier?.media[0] ?? '').pathname,
    });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.rawPayload.equals(PNG)).toBe(true);
    expect(localFiles()).toEqual([]);
  });

  it('answers 404 for a key that is not in the bucket, and for a path that tries to leave it', async () => {
    expect((await h.t.app.inject({ url: '/uploads/messages/1/nope.png' })).statusCode).toBe(404);
    // Encoded, so that the URL parser does not fold the dots away before the store sees them (a plain
    // `/uploads/../..` becomes another path of the site and never reaches the store).
    expect((await h.t.app.inject({ url: '/uploads/messages/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404);
    expect((await h.t.app.inject({ url: '/uploads/..%2F..%2F.env' })).statusCode).toBe(404);
  });
});

describe('library and logos in the bucket', () => {
  it('a library upload goes to the bucket; removed from the library, its link still works', async () => {
    const token = await h.token(h.seed.a.businessAdmin.email);
    const up = await h.t.app.inject({
      method: 'POST',
      url: '/api/v1/medias',
      headers: bearer(token),
      payload: { data: dataUrl('image/png', PNG), name: 'dot.png' },
    });
    expect(up.statusCode, up.body).toBe(200);
    const m = up.json().data;
    expect(s3.objects.has(keyOf(m.url))).toBe(true);
    expect((await h.t.app.inject({ url: m.url })).statusCode).toBe(200);
    const del = await h.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/medias/${m.id}`,
      headers: bearer(token),
    });
    expect(del.statusCode).toBe(200);
    // Messages sent with a library image link to its file (ADR 036): it stays.
    expect(s3.objects.has(keyOf(m.url))).toBe(true);
    expect((await h.t.app.inject({ url: m.url })).statusCode).toBe(200);
  });

  it("a business logo replaced in another format leaves one file; removing it empties the logo's keys", async () => {
    const token = await h.token(h.seed.a.businessAdmin.email);
    const up = (b: Buffer, mime: string) =>
      h.t.app.inject({
        method: 'POST',
        url: '/api/v1/businesses/image',
        headers: bearer(token),
        payload: { type: 'logo', data: dataUrl(mime, b) },
      });
    expect((await up(PNG, 'image/png')).statusCode).toBe(200);
    const res = await up(GIF, 'image/gif');
    expect(res.statusCode, res.body).toBe(200);
    const prefix = `businesses/${h.seed.a.business.id}/logo.`;
    expect([...s3.objects.keys()].filter((k) => k.startsWith(prefix))).toEqual([`${prefix}gif`]);
    const logo = await h.t.app.inject({ url: `/uploads/${prefix}gif` });
    expect(logo.rawPayload.equals(GIF)).toBe(true);
    const del = await h.t.app.inject({
      method: 'DELETE',
      url: '/api/v1/businesses/image/logo',
      headers: bearer(token),
    });
    expect(del.statusCode).toBe(200);
    expect([...s3.objects.keys()].filter((k) => k.startsWith(prefix))).toEqual([]);
  });
});

describe('calendar files in the bucket', () => {
  it('send-ics stores the .ics in the bucket and its link opens it', async () => {
    const from = '+14155550903';
    await inbound(from, { NumMedia: '0', Body: 'when?' });
    const c = await contactOf(from);
    const token = await h.token(h.seed.a.businessAdmin.email);
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/contacts/${c.id}/send-ics`,
      headers: bearer(token),
      payload: { title: 'Cleaning', start: '2030-01-05T14:00:00Z', end: '2030-01-05T15:00:00Z' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const path = new URL(res.json().data.ics_file).pathname;
    expect(s3.objects.get(keyOf(path))?.contentType).toMatch(/^text\/calendar/);
    const file = await h.t.app.inject({ url: path });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^text\/calendar/);
    expect(file.body).toContain('SUMMARY:Cleaning');
    expect(localFiles()).toEqual([]);
  });
});

describe('start-up', () => {
  it('refuses S3 without a bucket or keys, naming what is missing', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'my-bucket' })).toThrow(
      /S3_ACCESS_KEY_ID: required when STORAGE_DRIVER=s3[\s\S]*S3_SECRET_ACCESS_KEY/,
    );
    expect(() => loadConfig({ STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER must be local or s3/);
    expect(loadConfig({}).s3).toBeUndefined();
    const aws = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_BUCKET: 'b1b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      S3_REGION: 'eu-west-1',
    }).s3;
    expect(aws?.endpoint.href).toBe('https://s3.eu-west-1.amazonaws.com/');
    expect(aws?.forcePathStyle).toBe(false);
  });

  it('fails clearly with wrong credentials or a missing bucket, before anything starts', async () => {
    const start = (env: Record<string, string>) =>
      buildApp({
        config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...s3.env(), ...env }),
        db: h.t.db,
      });
    await expect(start({ S3_SECRET_ACCESS_KEY: 'not-the-secret' })).rejects.toThrow(
      /S3 storage at http:\/\/127\.0\.0\.1:\d+ bucket "stn-media" cannot be used: the store refused S3_ACCESS_KEY_ID\/S3_SECRET_ACCESS_KEY \(SignatureDoesNotMatch/,
    );
    await expect(start({ S3_ACCESS_KEY_ID: 'SOMEONEELSE' })).rejects.toThrow(
      /refused S3_ACCESS_KEY_ID.*InvalidAccessKeyId/,
    );
    await expect(start({ S3_BUCKET: 'other-bucket' })).rejects.toThrow(/no such bucket/);
    await expect(start({ S3_ENDPOINT: 'http://127.0.0.1:9' })).rejects.toThrow(
      /cannot reach http:\/\/127\.0\.0\.1:9/,
    );
    // The check's probe file is not left behind.
    expect([...s3.objects.keys()].filter((k) => k.startsWith('.startup-check/'))).toEqual([]);
  });

  it('with S3_PUBLIC_URL sends browsers and the carrier to the public bucket', async () => {
    const t = await createTestApp({
      ...s3.env(),
      DATA_DIR: dataDir,
      S3_PUBLIC_URL: 'https://media.example.com/',
    });
    try {
      const res = await t.app.inject({ url: '/uploads/messages/1/a.png' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('https://media.example.com/messages/1/a.png');
      expect(t.app.deps.storage.absoluteUrl('/uploads/messages/1/a.png', PUBLIC)).toBe(
        'https://media.example.com/messages/1/a.png',
      );
    } finally {
      await t.close();
    }
  });
});
