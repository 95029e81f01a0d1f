import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, login, seedTenants, snapshot, type TestApp } from '../../../test/helpers.ts';
import { type FormBody, twilioSignature } from './tree.ts';

// A test route on the real Twilio provider: the auth token comes from the agencies module's resolver
// (by AccountSid, opened from its sealed form), and the handler writes a row so that "changes nothing"
// can be checked.
const SID = 'AC0123456789abcdef0123456789abcdef';
const AUTH_TOKEN = 'twilio-auth-token-of-agency-a';
const HOST = 'hooks.example.test';
const URL_PATH = '/webhooks/test/twilio/sms?tenant=a';
const FULL_URL = `http://${HOST}${URL_PATH}`;
const TABLES = ['audit_logs', 'agencies'];

let t: TestApp;
let agencyId = 0;
const handled: FormBody[] = [];

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      plug: (p) =>
        p.webhooks.route({
          method: 'POST',
          url: '/test/twilio/sms',
          provider: 'twilio',
          async handler(request, reply) {
            const body = request.body as FormBody;
            if (body.Body === 'boom') throw new Error('handler bug with internals');
            handled.push(body);
            await t.pool.query(`insert into audit_logs (action, data) values ('test.webhook', $1)`, [body]);
            return reply.type('text/xml').send('<Response><Message>ok</Message></Response>');
          },
        }),
    },
  );
  const seed = await seedTenants(t.db);
  agencyId = seed.a.agency.id;
  // Through the API, so that the token is stored the way the product stores it (sealed). Setup checks the
  // credentials with the carrier first: the platform's sandbox holds an account with them.
  t.app.deps.carrier.sandbox?.ensureAccount({ sid: SID, authToken: AUTH_TOKEN });
  const token = await login(t.app, seed.superAdmin.email);
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/v1/agencies/${agencyId}/twilio-config`,
    headers: bearer(token),
    payload: { accountSid: SID, authToken: AUTH_TOKEN },
  });
  if (res.statusCode !== 200) throw new Error(`twilio-config: ${res.statusCode} ${res.body}`);
});
afterAll(async () => {
  await t?.close();
});

const params = { AccountSid: SID, From: '+15550001111', To: '+15550002222', Body: 'Hello there' };
const form = (p: Record<string, string>) => new URLSearchParams(p).toString();

function send(
  p: Record<string, string> | string,
  signature?: string,
  url = URL_PATH,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      host: HOST,
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature !== undefined ? { 'x-twilio-signature': signature } : {}),
      ...headers,
    },
    payload: typeof p === 'string' ? p : form(p),
  });
}

describe('/webhooks', () => {
  it('accepts a request signed the Twilio way over the full URL and the sorted form parameters', async () => {
    const res = await send(params, twilioSignature(AUTH_TOKEN, FULL_URL, params));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('<Response><Message>ok</Message></Response>');
    expect(handled).toEqual([params]);
  });

  it('refuses unsigned, badly signed, wrong-URL and unknown-account requests with 403, changing nothing', async () => {
    const before = await snapshot(t.pool, TABLES);
    const cases = [
      send(params),
      send(params, ''),
      send(params, twilioSignature('another-token', FULL_URL, params)),
      // Signed for another URL (query changed): the signature covers the URL as called.
      send(params, twilioSignature(AUTH_TOKEN, FULL_URL, params), '/webhooks/test/twilio/sms?tenant=b'),
      // A parameter changed after signing.
      send({ ...params, Body: 'Tampered' }, twilioSignature(AUTH_TOKEN, FULL_URL, params)),
      // An account no agency has.
      send(
        { ...params, AccountSid: 'ACunknown' },
        twilioSignature(AUTH_TOKEN, FULL_URL, { ...params, AccountSid: 'ACunknown' }),
      ),
    ];
    for (const res of await Promise.all(cases)) {
      expect(res.statusCode, res.body).toBe(403);
      // Twilio reads the answer as TwiML: never the API's JSON envelope.
      expect(res.headers['content-type']).toMatch(/^text\/xml/);
      expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    }
    expect(handled).toHaveLength(1);
    expect(await snapshot(t.pool, TABLES)).toEqual(before);
  });

  it("agrees with the twilio SDK's validateRequest: port or none, ' or %27, repeated values", async () => {
    const sign = (url: string, p: Record<string, string | string[]>) =>
      twilio.getExpectedTwilioSignature(AUTH_TOKEN, url, p);
    const path = "/webhooks/test/twilio/sms?tenant=a&name=O'Brien";
    const repeated = `${form(params)}&MediaUrl=x&MediaUrl=x`;
    const repeatedParams = { ...params, MediaUrl: ['x', 'x'] };
    const vectors: {
      name: string;
      url: string;
      host: string;
      signedUrl: string;
      body: string | Record<string, string>;
      p: Record<string, string | string[]>;
    }[] = [
      // Signed with the default port, received without it; and the other way round.
      {
        name: 'signed with :80',
        url: URL_PATH,
        host: HOST,
        signedUrl: `http://${HOST}:80${URL_PATH}`,
        body: params,
        p: params,
      },
      {
        name: 'received with :80',
        url: URL_PATH,
        host: `${HOST}:80`,
        signedUrl: FULL_URL,
        body: params,
        p: params,
      },
      // A quote in the query, signed as written or escaped.
      {
        name: "' as written",
        url: path,
        host: HOST,
        signedUrl: `http://${HOST}${path}`,
        body: params,
        p: params,
      },
      {
        name: "' as %27",
        url: path,
        host: HOST,
        signedUrl: `http://${HOST}${path.replace("'", '%27')}`,
        body: params,
        p: params,
      },
      // A parameter repeated with the same value (the SDK signs each distinct value once).
      {
        name: 'repeated values',
        url: URL_PATH,
        host: HOST,
        signedUrl: FULL_URL,
        body: repeated,
        p: repeatedParams,
      },
    ];
    for (const v of vectors) {
      const signature = sign(v.signedUrl, v.p);
      const sdk = twilio.validateRequest(AUTH_TOKEN, signature, `http://${v.host}${v.url}`, v.p);
      expect(sdk, v.name).toBe(true);
      const res = await send(v.body, signature, v.url, { host: v.host });
      expect(res.statusCode, v.name).toBe(200);
    }
    // Behind proxies that each add a scheme: Twilio called https, the last proxy spoke http.
    const viaProxies = sign(`https://${HOST}${URL_PATH}`, params);
    const proxied = await send(params, viaProxies, URL_PATH, { 'x-forwarded-proto': 'https, http' });
    expect(proxied.statusCode).toBe(200);
    // And refuses what the SDK refuses: another token, another path, a changed value.
    const refused = [
      { url: URL_PATH, signature: twilio.getExpectedTwilioSignature('other', FULL_URL, params), p: params },
      {
        url: URL_PATH,
        signature: sign(`http://${HOST}/webhooks/test/twilio/other?tenant=a`, params),
        p: params,
      },
      { url: URL_PATH, signature: sign(FULL_URL, params), p: { ...params, Body: 'changed' } },
    ];
    for (const r of refused) {
      expect(twilio.validateRequest(AUTH_TOKEN, r.signature, FULL_URL, r.p)).toBe(false);
      expect((await send(r.p as Record<string, string>, r.signature, r.url)).statusCode).toBe(403);
    }
  });

  it('answers a handler failure with empty TwiML, never the JSON envelope or internals', async () => {
    const p = { ...params, Body: 'boom' };
    const res = await send(p, twilioSignature(AUTH_TOKEN, FULL_URL, p));
    expect(res.statusCode).toBe(500);
    expect(res.body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(res.body).not.toContain('internals');
  });

  it('answers an unknown webhook path in plain text', async () => {
    const res = await send(params, 'x', '/webhooks/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).not.toContain('success');
  });

  it('answers 405 with Allow: POST to any other method on a webhook path, never the web app', async () => {
    const handledBefore405 = handled.length;
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
      for (const url of [
        '/webhooks/test/twilio/sms',
        '/webhooks/twilio/voice',
        '/webhooks/twilio/sms-in?x=1',
      ]) {
        const res = await t.app.inject({ method, url, headers: { host: HOST } });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(res.headers.allow, `${method} ${url}`).toBe('POST');
        expect(String(res.headers['content-type'])).not.toContain('html');
      }
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/webhooks/twilio/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(String(unknown.headers['content-type'])).toMatch(/^text\/plain/);
    expect(handled).toHaveLength(handledBefore405);
  });

  it('keeps the auth token sealed in the database', async () => {
    const row = (await t.pool.query('select twilio_config from agencies where id = $1', [agencyId])).rows[0];
    expect(JSON.stringify(row)).not.toContain(AUTH_TOKEN);
    expect(row.twilio_config.authToken).toMatch(/^enc:v1:/);
  });
});
