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

function send(p: Record<string, string>, signature?: string, url = URL_PATH) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      host: HOST,
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature !== undefined ? { 'x-twilio-signature': signature } : {}),
    },
    payload: form(p),
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

  it('keeps the auth token sealed in the database', async () => {
    const row = (await t.pool.query('select twilio_config from agencies where id = $1', [agencyId])).rows[0];
    expect(JSON.stringify(row)).not.toContain(AUTH_TOKEN);
    expect(row.twilio_config.authToken).toMatch(/^enc:v1:/);
  });
});
