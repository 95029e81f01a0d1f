// The direct intake (ADR 116) over real HTTP: the carrier's form webhooks answered before Fastify, with the
// /webhooks tree's rules (the signature on the URL as called, a trusted proxy's X-Forwarded-* only, a NUL
// refused, the provider's own error answers) and the headers every answer carries; anything else goes to
// the app as before. Which path answered is read from the request log: Fastify writes an
// `incoming request` line for every request it serves, the intake only its `request completed` line.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.ts';
import { agencyCarrierAccount } from '../../modules/agencies/service.ts';
import { restoreSandboxNumbers } from '../../modules/telephony/sandbox-restore.ts';
import { type Telephony, telephonyApp } from '../../modules/telephony/testing.ts';
import { ManualClock } from '../carrier/sandbox/clock.ts';
import { platformSystemContext } from '../tenancy/context.ts';
import { twilioSignature } from './tree.ts';

const PUBLIC = 'http://localhost:3000';
const SMS = '/webhooks/twilio/sms-in';
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

let h: Telephony;
let base: string;
let number: string;
let account: { accountSid: string; authToken: string };
const lines: {
  msg?: string;
  reqId?: string;
  req?: { url?: string; remoteAddress?: string };
  res?: { statusCode: number };
}[] = [];

beforeAll(async () => {
  const clock = new ManualClock(Date.now());
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
        done();
      },
    }),
  );
  // One proxy in front: the peer's X-Forwarded-* are believed (the test's own address is that peer).
  const t = await createTestApp(
    { WIDGET_RATE_PER_ADDRESS: '100000', PUBLIC_URL: PUBLIC, TRUST_PROXY: '1', LOG_LEVEL: 'info' },
    { sandboxClock: clock, logger: log },
  );
  h = await telephonyApp({}, { t, clock });
  const install = await h.install();
  const { rows } = await h.t.pool.query('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
  number = rows[0].phone_number;
  const found = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!found) throw new Error('no account');
  account = found;
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await h?.close();
});

const text = (body = 'hello there') => ({
  AccountSid: account.accountSid,
  MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
  From: '+14155550123',
  To: number,
  Body: body,
  NumMedia: '0',
});

/** A POST over HTTP; the signature covers `signedUrl` (the public URL by default). */
async function post(
  params: Record<string, string>,
  opts: {
    signedUrl?: string | null;
    headers?: Record<string, string>;
    path?: string;
    chunked?: boolean;
  } = {},
) {
  const path = opts.path ?? SMS;
  const headers: Record<string, string> = {
    host: 'localhost:3000',
    'content-type': 'application/x-www-form-urlencoded',
    ...opts.headers,
  };
  if (opts.signedUrl !== null)
    headers['x-twilio-signature'] = twilioSignature(
      account.authToken,
      opts.signedUrl ?? `${PUBLIC}${path}`,
      params,
    );
  const form = new URLSearchParams(params).toString();
  if (opts.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = String(Buffer.byteLength(form));
  return send('POST', path, headers, form);
}

/** A request over HTTP with exactly these headers (fetch would not send Host as given). */
function send(method: string, path: string, headers: Record<string, string>, body = '') {
  return new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const stored = async (sid: string) =>
  Number((await h.t.pool.query('select count(*) from messages where carrier_sid = $1', [sid])).rows[0].count);
/** The log lines of one request (by the id its answer carries). */
const linesOf = (requestId: string | undefined) =>
  lines.filter((l) => l.reqId === requestId).map((l) => l.msg);
/** Waits for the request's last log line (written once the answer is sent). */
async function loggedLines(requestId: string | undefined) {
  await expect.poll(() => linesOf(requestId)).toContain('request completed');
  return linesOf(requestId);
}

describe('the direct intake', () => {
  it('records a signed text once, however often it is delivered, without Fastify', async () => {
    const params = text();
    const first = await post(params);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(first.body).toContain('<Response');
    expect(await loggedLines(first.headers['x-request-id'])).toEqual(['request completed']);
    const again = await post(params);
    expect(again.status).toBe(200);
    expect(await stored(params.MessageSid)).toBe(1);
  });

  it("writes the request line of the sandbox's webhooks answered in process too", async () => {
    const textsIn = () => lines.filter((l) => l.msg === 'request completed' && l.req?.url?.startsWith(SMS));
    // The number's webhooks as the sandbox keeps them (as at a start).
    await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
    const before = textsIn().length;
    h.sandbox.phones.sendText('+14155550977', number, 'from a sandbox phone');
    await h.run(1000);
    await expect.poll(() => textsIn().length).toBe(before + 1);
    const line = textsIn().at(-1);
    expect(line).toMatchObject({ req: { remoteAddress: '127.0.0.1' }, res: { statusCode: 200 } });
    // Answered by the intake (no Fastify line), and the text is in.
    expect(linesOf(line?.reqId)).toEqual(['request completed']);
    const { rows } = await h.t.pool.query('select count(*)::int as n from messages where body = $1', [
      'from a sandbox phone',
    ]);
    expect(rows[0].n).toBe(1);
  });

  it("answers with the same headers as the app's path, and keeps the caller's request id", async () => {
    const direct = await post(text(), { headers: { 'x-request-id': 'carrier-req-1' } });
    // The same text sent chunked (no length) is the app's to answer.
    const viaApp = await post(text(), { chunked: true });
    expect(viaApp.status).toBe(200);
    expect(await loggedLines(viaApp.headers['x-request-id'])).toContain('incoming request');
    expect(direct.headers['x-request-id']).toBe('carrier-req-1');
    const comparable = (hs: Record<string, string>) => {
      const { date: _d, 'x-request-id': _r, 'content-length': _l, ...rest } = hs;
      return rest;
    };
    expect(comparable(direct.headers)).toEqual(comparable(viaApp.headers));
    expect(direct.headers['content-security-policy']).toContain("default-src 'self'");
    expect(direct.body).toBe(viaApp.body);
  });

  it('refuses a text without a valid signature: 403, the empty TwiML, nothing stored', async () => {
    for (const signedUrl of [null, `${PUBLIC}/webhooks/twilio/other`]) {
      const params = text();
      const res = await post(params, { signedUrl });
      expect(res.status).toBe(403);
      expect(res.body).toBe(EMPTY_TWIML);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(await loggedLines(res.headers['x-request-id'])).toEqual([
        'webhook refused: bad or missing signature',
        'request completed',
      ]);
      expect(await stored(params.MessageSid)).toBe(0);
    }
  });

  it('refuses a NUL byte with a 400, signed or not', async () => {
    const params = text('a\u0000b');
    const res = await post(params);
    expect(res.status).toBe(400);
    expect(res.body).toBe(EMPTY_TWIML);
    expect(await stored(params.MessageSid)).toBe(0);
  });

  it("reads the URL as a trusted proxy's caller used it", async () => {
    // Signed for the agency's own domain over https, forwarded by the proxy in front (TRUST_PROXY=1).
    const params = text();
    const res = await post(params, {
      signedUrl: `https://texts.example.com${SMS}`,
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'texts.example.com' },
    });
    expect(res.status).toBe(200);
    expect(await stored(params.MessageSid)).toBe(1);
    // The same host, not forwarded: the signature does not cover the URL called.
    const direct = text();
    const refused = await post(direct, { signedUrl: `https://texts.example.com${SMS}` });
    expect(refused.status).toBe(403);
    expect(await stored(direct.MessageSid)).toBe(0);
  });

  it('leaves a body over the limit to the app (413), and other methods and paths as they were', async () => {
    const big = await post({ ...text(), Body: 'x'.repeat(300 * 1024) });
    expect(big.status).toBe(413);
    expect(await loggedLines(big.headers['x-request-id'])).toContain('incoming request');
    const get = await send('GET', SMS, { host: 'localhost:3000' });
    expect(get.status).toBe(405);
    const unknown = await post(text(), { path: '/webhooks/twilio/nothing' });
    expect(unknown.status).toBe(404);
  });
});
