// Fixtures of the telephony tests: an app on a fresh database with the sandbox carrier on a ManualClock,
// tenant A's agency on a sandbox account, and an install of business A that rings two staff phones from
// a purchased number. Only the tests import this file.

import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { bearer, createTestApp, login, type Seed, seedTenants, type TestApp } from '../../../test/helpers.ts';
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import type { TwilioSandbox } from '../../platform/carrier/sandbox/sandbox.ts';
import { platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import { twilioSignature } from '../../platform/webhooks/tree.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { addDemoNumber, telephonyIdle } from './service.ts';

export const STAFF_1 = '+15005550101';
export const STAFF_2 = '+15005550102';
export const INSTALL_NUMBER = '+15005550006';
export const VISITOR = '+14155550100';

/** Open every day, all day, in UTC. */
export const ALWAYS_OPEN = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    { open: true, from: '12:00AM', to: '11:59PM' },
  ]),
);
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** The weekday (0 = Sunday) three days from now in `timeZone`: never today there, whenever a test runs. */
export function weekdayAhead(timeZone: string): number {
  const later = new Date(Date.now() + 3 * 86_400_000);
  return WEEKDAYS.indexOf(
    new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(later).toLowerCase(),
  );
}

/**
 * Hours that are closed now: open only 08:00-09:00 on `weekdayAhead(timeZone)`, so that there are openings
 * to offer. (A fixed open hour, Monday 08:00, made the tests fail during that hour every week.)
 */
export function closedHours(timeZone: string) {
  const open = WEEKDAYS[weekdayAhead(timeZone)];
  return Object.fromEntries(WEEKDAYS.map((d) => [d, { open: d === open, from: '08:00AM', to: '09:00AM' }]));
}

export type Telephony = {
  t: TestApp;
  seed: Seed;
  clock: ManualClock;
  sandbox: TwilioSandbox;
  token: (email: string) => Promise<string>;
  /** Lets the sandbox run `ms` of its time, waiting for every webhook and our own follow-up work. */
  run: (ms?: number) => Promise<void>;
  install: (
    settings?: Record<string, unknown>,
    opts?: { number?: string | null; tenant?: 'a' | 'b' },
  ) => Promise<{ id: number; key: string }>;
  callback: (
    key: string,
    payload: Record<string, unknown>,
    headers?: Record<string, string>,
  ) => Promise<LightMyRequestResponse>;
  /** Every leg status the sandbox can still send is sent. */
  close: () => Promise<void>;
};

export async function telephonyApp(
  env: Record<string, string> = {},
  opts: { clock?: ManualClock; t?: TestApp; seed?: Seed } = {},
): Promise<Telephony> {
  const clock = opts.clock ?? new ManualClock(Date.now());
  const t =
    opts.t ??
    (await createTestApp(
      { WIDGET_RATE_PER_ADDRESS: '100000', PUBLIC_URL: 'http://localhost:3000', ...env },
      { sandboxClock: clock },
    ));
  const seed = opts.seed ?? (await seedTenants(t.db));
  const deps = t.app.deps;
  const sandbox = deps.carrier.sandbox;
  if (!sandbox) throw new Error('the sandbox carrier is off');
  // Both agencies on sandbox accounts of their own (the token sealed, as agency Setup stores it).
  for (const agency of [seed.a.agency, seed.b.agency]) {
    const { rows } = await t.pool.query(
      "select twilio_config->>'accountSid' as sid from agencies where id = $1",
      [agency.id],
    );
    if (rows[0]?.sid) continue;
    const account = deps.carrier.createSandboxAccount(agency.name);
    await t.pool.query('update agencies set twilio_config = $1 where id = $2', [
      JSON.stringify({
        accountSid: account.sid,
        authToken: deps.secrets.seal(account.authToken),
        sandbox: true,
      }),
      agency.id,
    ]);
  }
  const tokens = new Map<string, string>();
  const token = async (email: string) => {
    let tok = tokens.get(email);
    if (!tok) {
      tok = await login(t.app, email);
      tokens.set(email, tok);
    }
    return tok;
  };
  const run = async (ms = 0) => {
    for (let i = 0; i < 3; i++) {
      await clock.settle();
      await telephonyIdle(platformSystemContext(deps, 'job', 'telephony idle'));
    }
    if (ms > 0) await clock.advance(ms);
    for (let i = 0; i < 3; i++) {
      await clock.settle();
      await telephonyIdle(platformSystemContext(deps, 'job', 'telephony idle'));
    }
  };
  let n = 5;
  const install: Telephony['install'] = async (settings = {}, o = {}) => {
    const tenant = seed[o.tenant ?? 'a'];
    await t.pool.query('update businesses set number_of_installs = 100 where id = $1', [tenant.business.id]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/installs',
      headers: bearer(await token(tenant.businessAdmin.email)),
      payload: {
        name: `Site ${++n}`,
        website: 'https://example.test',
        settings: {
          timezone: 'UTC',
          hours: ALWAYS_OPEN,
          phoneAgents: [
            { name: 'Front desk', phone: STAFF_1 },
            { name: 'Dr. Bright', phone: STAFF_2 },
          ],
          ...settings,
        },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data as { id: number; key: string };
    // Each install its own number; the first one is INSTALL_NUMBER.
    const number = o.number === undefined ? `+1500555${String(n).padStart(4, '0')}` : o.number;
    if (number) {
      const ctx = tenantContext(
        deps,
        { level: 'business', agencyId: tenant.agency.id, businessId: tenant.business.id },
        { kind: 'system', source: 'seed', name: 'test number' },
      );
      await addDemoNumber(ctx, {
        agencyId: tenant.agency.id,
        businessId: tenant.business.id,
        installId: data.id,
        phoneNumber: number,
      });
    }
    return data;
  };
  const callback: Telephony['callback'] = (key, payload, headers = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/widget/v1/callback',
      headers: { 'x-install-key': key, ...headers },
      payload,
    });
  return {
    t,
    seed,
    clock,
    sandbox,
    token,
    run,
    install,
    callback,
    close: async () => {
      if (!opts.t) await t.close();
    },
  };
}

/**
 * Registers a test file's telephony app (`telephonyApp(env)`) and its closing; the fields are filled before
 * the file's own `beforeAll` hooks and tests run.
 */
export function useTelephony(env: Record<string, string> = {}): Telephony {
  const h = {} as Telephony;
  beforeAll(async () => {
    Object.assign(h, await telephonyApp(env));
  });
  afterAll(() => h.close?.());
  return h;
}

/** A staff phone picks up the call ringing it, hears the whisper (`whisperMs`) and presses 1. */
export async function staffTakes(h: Telephony, staff: string, whisperMs = 5000): Promise<void> {
  h.sandbox.phones.answer(staff);
  await h.run(whisperMs);
  h.sandbox.phones.press(staff, '1');
  await h.run(1000);
}

/** A callback the first staff phone takes and the visitor answers (they are in the call). Its id. */
export async function connectedCallback(h: Telephony, key: string, visitor: string): Promise<number> {
  const res = await h.callback(key, { phone: visitor, name: 'Ann' });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().data.call_id as number;
  await h.run(1000);
  await staffTakes(h, STAFF_1);
  h.sandbox.phones.answer(visitor);
  return id;
}

/**
 * A callback the first staff phone takes and the visitor answers; they talk `talkMs`, then the staff phone
 * hangs up: a completed call (recorded when the install records). Answers the call's id.
 */
export async function answeredCall(
  h: Telephony,
  key: string,
  visitor: string,
  talkMs = 20_000,
): Promise<number> {
  const id = await connectedCall(h, key, visitor, talkMs);
  h.sandbox.phones.hangUp(STAFF_1);
  await h.run(2000);
  return id;
}

/** A connected callback (connectedCallback) whose parties are still talking after `talkMs`. Its id. */
export async function connectedCall(
  h: Telephony,
  key: string,
  visitor: string,
  talkMs = 1000,
): Promise<number> {
  const id = await connectedCallback(h, key, visitor);
  await h.run(talkMs);
  return id;
}

/** A callback nobody takes (an install with a 20 s timeout): the visitor leaves a voicemail. Its call's id. */
export async function voicemailCall(h: Telephony, key: string, visitor: string): Promise<number> {
  const res = await h.callback(key, { phone: visitor });
  const id = res.json().data.call_id as number;
  await h.run(25_000);
  h.sandbox.phones.answer(visitor);
  await h.run(15_000);
  h.sandbox.phones.hangUp(visitor);
  await h.run(2000);
  return id;
}

/** Business A's contact with this phone (its row), or undefined. */
export async function businessContact(h: Telephony, phone: string) {
  const { rows } = await h.t.pool.query('select * from contacts where business_id = $1 and phone = $2', [
    h.seed.a.business.id,
    phone,
  ]);
  return rows[0];
}

/**
 * Posts a carrier webhook to `path` as a tenant's carrier account does (tenant A's unless told):
 * form-encoded, with the account's sid, signed with its token; `signWith`: another token, or null for no
 * signature; `app`: another server process on the same database (the test's own unless told).
 */
export async function carrierWebhook(
  h: Telephony,
  path: string,
  params: Record<string, string>,
  opts: { signWith?: string | null; tenant?: 'a' | 'b'; app?: FastifyInstance } = {},
): Promise<LightMyRequestResponse> {
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed[opts.tenant ?? 'a'].agency.id);
  if (!account) throw new Error('no account');
  const body = { AccountSid: account.accountSid, ...params };
  const headers: Record<string, string> = {
    host: 'localhost:3000',
    'content-type': 'application/x-www-form-urlencoded',
  };
  if (opts.signWith !== null)
    headers['x-twilio-signature'] = twilioSignature(
      opts.signWith ?? account.authToken,
      `http://localhost:3000${path}`,
      body,
    );
  return (opts.app ?? h.t.app).inject({
    method: 'POST',
    url: path,
    headers,
    payload: new URLSearchParams(body).toString(),
  });
}

/** Business A's context (a system actor named `name`) and a query on the test's pool, for engine tests. */
export function businessA(h: Telephony, name: string) {
  const a = h.seed.a;
  const ctx = tenantContext(
    h.t.app.deps,
    { level: 'business', agencyId: a.agency.id, businessId: a.business.id },
    { kind: 'system', source: 'seed', name },
  );
  const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) =>
    (await h.t.pool.query(text, values)).rows as T[];
  return { ctx, q };
}

/**
 * `count` contacts of business A (phones `prefix` + 4 digits from `first`), on the install (or none), in
 * one statement, tagged `tagId` when given, in `timeZone` (UTC unless told). Their ids.
 */
export async function addContactsA(
  h: Telephony,
  opts: {
    count: number;
    prefix: string;
    first?: number;
    installId?: number | null;
    tagId?: number;
    timeZone?: string;
  },
): Promise<number[]> {
  const a = h.seed.a;
  const { rows } = await h.t.pool.query<{ id: number }>(
    `insert into contacts (agency_id, business_id, install_id, phone, first_name, last_name, time_zone)
     select $1, $2, $3, $4 || lpad(i::text, 4, '0'), 'Ann' || i, 'Lee', $7
       from generate_series($5::int, $5::int + $6::int - 1) as i
     returning id`,
    [
      a.agency.id,
      a.business.id,
      opts.installId ?? null,
      opts.prefix,
      opts.first ?? 0,
      opts.count,
      opts.timeZone ?? 'UTC',
    ],
  );
  const ids = rows.map((r) => r.id);
  if (opts.tagId)
    await h.t.pool.query('insert into contact_tags (contact_id, tag_id) select unnest($1::int[]), $2', [
      ids,
      opts.tagId,
    ]);
  return ids;
}

/** A tag of business A; its id. */
export async function addTagA(h: Telephony, name: string): Promise<number> {
  const { rows } = await h.t.pool.query<{ id: number }>(
    'insert into tags (business_id, name) values ($1, $2) returning id',
    [h.seed.a.business.id, name],
  );
  return (rows[0] as { id: number }).id;
}
