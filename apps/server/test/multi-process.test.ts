// Several processes on one PostgreSQL and one Redis (issue 27, ADR 098): two API processes and a worker,
// behind a round-robin load balancer (./load-balancer.ts). API A is this test's own process: it holds the
// sandbox carrier on a manual clock, so that the test plays the phones; its webhooks leave over HTTP
// through the balancer, as Twilio's reach a deployment. API B (`apps/server/src/main.ts`) and the worker
// (`apps/server/src/worker.ts`), from this run's bundle, are child processes on A's sandbox (CARRIER_SANDBOX_URL). Both API
// processes run with WORKERS=off: every job is the worker's. Checked: a text landing on one process reaches
// a socket on the other, once; a callback asked on A is claimed through the "press 1" webhook on B, once;
// a job enqueued by either process runs once; a burst of texts spread over both (some delivered to both,
// as a carrier retries) is stored once and announced once on every socket. Skipped, with a message,
// where no Redis runs at 127.0.0.1:6379.
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { agencyCarrierAccount } from '../src/modules/agencies/service.ts';
import { restoreSandboxNumbers } from '../src/modules/telephony/service.ts';
import {
  closedHours,
  STAFF_1,
  STAFF_2,
  type Telephony,
  telephonyApp,
} from '../src/modules/telephony/testing.ts';
import { openStream } from '../src/modules/widget/testing.ts';
import { ManualClock } from '../src/platform/carrier/sandbox/clock.ts';
import { TwilioSandbox } from '../src/platform/carrier/sandbox/sandbox.ts';
import type { WebhookTransport } from '../src/platform/carrier/sandbox/webhook-caller.ts';
import { freePort } from '../src/platform/db/embedded.ts';
import { JOB_SCHEMA } from '../src/platform/queue/queue.ts';
import { platformSystemContext } from '../src/platform/tenancy/context.ts';
import { twilioSignature } from '../src/platform/webhooks/tree.ts';
import { serverEntry } from './child-server.ts';
import { bearer, createTestApp, openSocketAt } from './helpers.ts';
import { type LoadBalancer, PIN_HEADER, startLoadBalancer } from './load-balancer.ts';
import { hasTestRedis, TEST_REDIS_URL } from './redis.ts';

const hasRedis = await hasTestRedis('the several-processes test (two API processes and a worker)');

const root = path.resolve(import.meta.dirname, '../../..');
/** The URL the platform believes it is at (what webhooks are signed for); requests reach the balancer. */
const PUBLIC = 'http://localhost:3000';
const SECRETS_KEY = crypto.randomBytes(32).toString('base64');
const A = 0;
const B = 1;
const AWAY = 'We are closed: we will text you back in the morning.';

type Child = { child: ChildProcess; out: () => string };
const children: Child[] = [];

/** Runs an entry point in a process group of its own until it prints `ready` (its output in the error). */
async function startProcess(
  entry: 'main' | 'worker',
  env: Record<string, string>,
  ready: string,
): Promise<Child> {
  const child = spawn(process.execPath, serverEntry(entry), {
    cwd: root,
    env: { ...process.env, ...env },
    detached: true,
  });
  let out = '';
  const c = { child, out: () => out };
  children.push(c);
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    // Its start is waited for (a busy machine may take long to start it); a child that never starts fails
    // the test with its output rather than the hook's bare timeout.
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${out}`)), 300_000);
    const check = () => {
      if (out.includes(ready)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited (${code ?? signal}):\n${out}`));
    });
  });
  return c;
}

/**
 * `startProcess` with `PORT` a free port, its port: a port found free may be taken by another process (a
 * test run beside this one) before the child binds it, and a child refused its port is started again on
 * another, five times at most.
 */
async function startOnFreePort(entry: 'main', env: Record<string, string>, ready: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await startProcess(entry, { ...env, PORT: String(port) }, ready);
      return port;
    } catch (err) {
      if (attempt >= 5 || !String((err as Error).message).includes('EADDRINUSE')) throw err;
    }
  }
}

/** An HTTP request through the balancer (pinned to a backend when told); the Host the platform's. */
function request(
  lb: LoadBalancer,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string; backend?: number },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: new URL(PUBLIC).host, ...opts.headers };
    if (opts.backend !== undefined) headers[PIN_HEADER] = String(opts.backend);
    if (opts.body !== undefined) headers['content-length'] = String(Buffer.byteLength(opts.body));
    const req = http.request(
      { host: '127.0.0.1', port: lb.port, method: opts.method ?? 'GET', path: opts.path, headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The sandbox's webhooks over HTTP through the balancer: round robin, or all to `pin.to` while set. */
function balancedTransport(lbOf: () => LoadBalancer, pin: { to: number | null }): WebhookTransport {
  return async (url, headers, body, method = 'POST') => {
    const u = new URL(url);
    const res = await request(lbOf(), {
      method,
      path: `${u.pathname}${u.search}`,
      headers: { ...headers, host: u.host },
      ...(method === 'POST' ? { body } : {}),
      ...(pin.to !== null ? { backend: pin.to } : {}),
    });
    return res;
  };
}

type Socket = { ws: WebSocket; got: { type: string; data?: Record<string, unknown> }[] };

/** A signed-in user's WebSocket through the balancer, pinned to one API process; resolves on `ready`. */
async function openSocket(lb: LoadBalancer, token: string, backend: number): Promise<Socket> {
  return openSocketAt(`${lb.url.replace('http', 'ws')}/ws`, token, {
    [PIN_HEADER]: String(backend),
    host: new URL(PUBLIC).host,
  });
}

/** How many `new_message` events of this body the socket received. */
const heard = (s: Socket, body: string) =>
  s.got.filter((m) => m.type === 'new_message' && (m.data?.message as { body?: string })?.body === body)
    .length;

describe.skipIf(!hasRedis)('two API processes and a worker on one PostgreSQL and one Redis', () => {
  let h: Telephony;
  let lb: LoadBalancer;
  let number = '';
  /** The number of a second install, closed all week, whose business answers with an away message. */
  let closedNumber = '';
  let installKey = '';
  let accountSid = '';
  let authToken = '';
  const pin: { to: number | null } = { to: null };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-multi-'));
  const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

  beforeAll(async () => {
    const clock = new ManualClock(Date.now());
    const sandbox = new TwilioSandbox({
      clock,
      publicBase: PUBLIC,
      transport: balancedTransport(() => lb, pin),
    });
    const env = {
      WORKERS: 'off',
      REDIS_URL: TEST_REDIS_URL,
      SECRETS_KEY,
      PUBLIC_URL: PUBLIC,
      WIDGET_RATE_PER_ADDRESS: '100000',
    };
    const t = await createTestApp(env, { sandboxClock: clock, sandbox });
    h = await telephonyApp(env, { clock, t });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const baseA = `http://127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
    const install = await h.install();
    installKey = install.key;
    [{ phone_number: number }] = await rows('select phone_number from numbers where install_id = $1', [
      install.id,
    ]);
    const closed = await h.install({ hours: closedHours('UTC') });
    [{ phone_number: closedNumber }] = await rows('select phone_number from numbers where install_id = $1', [
      closed.id,
    ]);
    // The away reply (ADR 094) is on before B starts (and reads it); the first install is open all week.
    const away = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/businesses/setting',
      headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
      payload: {
        messages: {
          signature_enabled: false,
          signature: '',
          away_enabled: true,
          away_message: AWAY,
          away_every_hours: 12,
        },
      },
    });
    expect(away.statusCode, away.body).toBe(200);
    await restoreSandboxNumbers(platformSystemContext(t.app.deps, 'job', 'sandbox numbers'));
    const account = await agencyCarrierAccount(t.app.deps, h.seed.a.agency.id);
    if (!account) throw new Error('no carrier account');
    ({ accountSid, authToken } = account);

    const shared = {
      NODE_ENV: 'test',
      DATABASE_URL: t.config.databaseUrl ?? '',
      DATA_DIR: dataDir,
      SECRETS_KEY,
      REDIS_URL: TEST_REDIS_URL,
      PUBLIC_URL: PUBLIC,
      CARRIER_SANDBOX_URL: baseA,
      DEMO_DATA: 'false',
      WIDGET_RATE_PER_ADDRESS: '100000',
    };
    const [portB] = await Promise.all([
      startOnFreePort(
        'main',
        { ...shared, WORKERS: 'off', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
        'Press Ctrl+C to stop',
      ),
      startProcess('worker', { ...shared, LOG_LEVEL: 'info' }, 'worker started'),
    ]);
    lb = await startLoadBalancer([baseA, `http://127.0.0.1:${portB}`]);
  }, 600_000);

  afterAll(async () => {
    for (const c of children)
      if (c.child.pid && c.child.exitCode === null && c.child.signalCode === null) {
        const exited = new Promise((resolve) => c.child.on('exit', resolve));
        try {
          process.kill(-c.child.pid, 'SIGKILL');
          await exited;
        } catch {
          // already gone
        }
      }
    await lb?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** An inbound text's webhook, signed as tenant A's carrier account signs it, through the balancer. */
  const textIn = (from: string, body: string, opts: { backend?: number; sid?: string; to?: string } = {}) => {
    const params = {
      AccountSid: accountSid,
      MessageSid: opts.sid ?? `SM${crypto.randomBytes(16).toString('hex')}`,
      From: from,
      To: opts.to ?? number,
      Body: body,
      NumMedia: '0',
    };
    const path = '/webhooks/twilio/sms-in';
    return request(lb, {
      method: 'POST',
      path,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(authToken, `${PUBLIC}${path}`, params),
      },
      body: new URLSearchParams(params).toString(),
      ...(opts.backend !== undefined ? { backend: opts.backend } : {}),
    });
  };

  /** Lets the sandbox's time run until `done` holds (bounded): other processes answer its webhooks. */
  const runUntil = async (what: string, done: () => boolean | Promise<boolean>, stepMs = 500) => {
    const until = Date.now() + 20_000;
    while (!(await done())) {
      if (Date.now() > until) throw new Error(`gave up waiting: ${what}`);
      await h.run(stepMs);
    }
  };

  it('a text landing on process A reaches a socket on process B, once', async () => {
    const token = await h.token(h.seed.a.businessAdmin.email);
    const onB = await openSocket(lb, token, B);
    expect(lb.routed.at(-1)).toMatchObject({ backend: B, upgrade: true, path: '/ws' });
    const res = await textIn('+14155550301', 'hello from A', { backend: A });
    expect(res.status, res.body).toBe(200);
    expect(lb.routed.at(-1)).toMatchObject({ backend: A, path: '/webhooks/twilio/sms-in' });
    await expect.poll(() => heard(onB, 'hello from A'), { timeout: 10_000 }).toBeGreaterThan(0);
    // A second text from A (published after the first on A's connection to Redis): once it is heard, a
    // second copy of the first would have been too.
    expect((await textIn('+14155550301', 'fence', { backend: A })).status).toBe(200);
    await expect.poll(() => heard(onB, 'fence'), { timeout: 10_000 }).toBe(1);
    expect(heard(onB, 'hello from A')).toBe(1);
    const [{ n }] = await rows(`select count(*)::int as n from messages where body = 'hello from A'`);
    expect(n).toBe(1);
    onB.ws.terminate();
  });

  it('a callback asked on A is claimed through the "press 1" webhook delivered to B, once', async () => {
    const visitor = '+14155550302';
    const res = await request(lb, {
      method: 'POST',
      path: '/api/widget/v1/callback',
      headers: { 'content-type': 'application/json', 'x-install-key': installKey },
      body: JSON.stringify({ phone: visitor, name: 'Vera' }),
      backend: A,
    });
    expect(res.status, res.body).toBe(200);
    const { call_id: callId, token: visitorToken } = JSON.parse(res.body).data as {
      call_id: number;
      token: string;
    };
    const phone = (n: string) => h.sandbox.phones.get(n);
    // The visitor's widget follows the call on a stream held by B.
    const stream = await openStream(lb.backends[B] as string, installKey, visitorToken);
    await stream.until(1);

    // The worker dials both staff phones at once; the two requests may reach the sandbox a step apart.
    await runUntil(
      'both staff phones ring',
      () => phone(STAFF_1).state === 'ringing' && phone(STAFF_2).state === 'ringing',
    );
    h.sandbox.phones.answer(STAFF_1);
    await runUntil('the whisper asks for a key', () => phone(STAFF_1).call?.gathering === true);

    // The key press's webhook (and what follows it) goes to B alone.
    const before = lb.routed.length;
    pin.to = B;
    h.sandbox.phones.press(STAFF_1, '1');
    await runUntil('the visitor rings', () => phone(visitor).state === 'ringing');
    pin.to = null;
    const toB = lb.routed.slice(before);
    expect(toB.length).toBeGreaterThan(0);
    expect(toB.every((r) => r.backend === B)).toBe(true);
    // B cancels the other staff leg right after its answer to the press, beside the visitor's dial: it
    // stops ringing (a cancel takes no time on the sandbox's clock).
    await expect.poll(() => phone(STAFF_2).state, { timeout: 10_000 }).toBe('idle');

    h.sandbox.phones.answer(visitor);
    await runUntil('the call is connected', async () => {
      const [c] = await rows('select connected_at from calls where id = $1', [callId]);
      return c?.connected_at != null;
    });
    const [call] = await rows('select * from calls where id = $1', [callId]);
    expect(call).toMatchObject({ outcome: 'in_progress', agent_phone: STAFF_1 });
    expect(call.claimed_leg_sid).toMatch(/^CA/);
    // One call asked, one visitor leg dialled, one claim.
    const calls = h.sandbox.phones.get(visitor);
    expect(calls.state).toBe('in-call');
    const dialled = [...h.sandbox.calls.values()].filter((c) => c.to === visitor);
    expect(dialled).toHaveLength(1);
    const [{ n }] = await rows('select count(*)::int as n from calls where visitor_phone = $1', [visitor]);
    expect(n).toBe(1);
    const [counted] = await rows('select number_of_calls from businesses where id = $1', [
      h.seed.a.business.id,
    ]);
    expect(counted.number_of_calls).toBe(1);
    h.sandbox.phones.hangUp(visitor);
    await runUntil('the call ends', async () => {
      const [c] = await rows('select outcome from calls where id = $1', [callId]);
      return c?.outcome === 'completed';
    });
    // Each step of the call reached the stream on B once, in order.
    await stream.until(4);
    expect(stream.events.slice(0, 3).map((e) => e.data)).toEqual([
      { type: 'call', call_id: callId, status: 'finding' },
      { type: 'call', call_id: callId, status: 'calling_you' },
      { type: 'call', call_id: callId, status: 'connected' },
    ]);
    const statuses = stream.events.map((e) => (e.data as { status?: string }).status);
    expect(new Set(statuses).size).toBe(statuses.length);
    stream.close();
  });

  it('a job enqueued by A and one by B each run once, on the worker', async () => {
    const phone = '+14155550303';
    expect((await textIn(phone, 'schedule me', { backend: A })).status).toBe(200);
    await expect
      .poll(async () => (await rows('select id from contacts where phone = $1', [phone])).length)
      .toBe(1);
    const [{ id: contactId }] = await rows('select id from contacts where phone = $1', [phone]);
    const token = await h.token(h.seed.a.businessAdmin.email);
    // A scheduled text from each API process, a few seconds ahead: the job is enqueued where the request
    // landed, and announced with its time; the worker starts it then (ADR 120), though it heard of it from
    // the other process's commit.
    const at = new Date(Date.now() + 5_000).toISOString();
    const ids: number[] = [];
    for (const [backend, body] of [
      [A, 'scheduled on A'],
      [B, 'scheduled on B'],
    ] as const) {
      const res = await request(lb, {
        method: 'POST',
        path: `/api/v1/chats/contacts/${contactId}/messages`,
        headers: { 'content-type': 'application/json', ...bearer(token) },
        body: JSON.stringify({ body, send_at: at }),
        backend,
      });
      expect(res.status, res.body).toBe(200);
      ids.push(JSON.parse(res.body).data.id as number);
    }
    const sent = () =>
      h.sandbox
        .sentMessages({ to: phone })
        .map((m) => m.body)
        .sort();
    await expect.poll(sent, { timeout: 30_000, interval: 200 }).toEqual(['scheduled on A', 'scheduled on B']);
    // Every job of the two texts completed, once, without a retry.
    await expect
      .poll(
        async () =>
          (
            await rows(
              `select state, retry_count from ${JOB_SCHEMA}.job where data->>'messageId' = any($1::text[])`,
              [ids.map(String)],
            )
          ).map((r) => `${r.state}/${r.retry_count}`),
        { timeout: 10_000 },
      )
      .toEqual(['completed/0', 'completed/0']);
    // The carrier's status callbacks (through the balancer, to either process) say delivered.
    await runUntil('both texts are delivered', async () =>
      (await rows('select status from messages where id = any($1::int[])', [ids])).every(
        (r) => r.status === 'delivered',
      ),
    );
    // Nothing more was sent once the jobs were done (a second run would have texted again).
    expect(sent()).toHaveLength(2);
  });

  it('a burst of texts spread over both processes: every one stored once, announced once on every socket', async () => {
    const token = await h.token(h.seed.a.businessAdmin.email);
    const onA = await openSocket(lb, token, A);
    const onB = await openSocket(lb, token, B);
    const N = 60;
    const bodies = Array.from({ length: N }, (_, i) => `burst ${i}`);
    const sids = bodies.map(() => `SM${crypto.randomBytes(16).toString('hex')}`);
    const sends: Promise<{ status: number; body: string }>[] = [];
    for (let i = 0; i < N; i++) {
      const from = `+1415555${String(1000 + (i % 7)).padStart(4, '0')}`;
      // Round robin; every fifth is delivered to both processes at once, as a carrier retries.
      sends.push(textIn(from, bodies[i] as string, { sid: sids[i] as string }));
      if (i % 5 === 0) sends.push(textIn(from, bodies[i] as string, { sid: sids[i] as string }));
    }
    const answers = await Promise.all(sends);
    expect(answers.filter((r) => r.status !== 200)).toEqual([]);
    const spread = lb.routed.slice(-sends.length).map((r) => r.backend);
    expect(spread.filter((b) => b === A).length).toBeGreaterThan(N / 3);
    expect(spread.filter((b) => b === B).length).toBeGreaterThan(N / 3);

    const { rows: stored } = await h.t.pool.query(
      `select body, count(*)::int as n from messages where body like 'burst %' group by body`,
    );
    expect(stored).toHaveLength(N);
    expect(stored.filter((r) => r.n !== 1)).toEqual([]);
    for (const s of [onA, onB])
      await expect.poll(() => bodies.filter((b) => heard(s, b) > 0).length, { timeout: 15_000 }).toBe(N);
    // A last text through each process, heard after all of the burst's news on both sockets.
    for (const backend of [A, B]) {
      const fence = `burst fence ${backend}`;
      expect((await textIn('+14155550399', fence, { backend })).status).toBe(200);
      for (const s of [onA, onB]) await expect.poll(() => heard(s, fence), { timeout: 10_000 }).toBe(1);
    }
    for (const s of [onA, onB]) expect(bodies.filter((b) => heard(s, b) !== 1)).toEqual([]);
    onA.ws.terminate();
    onB.ws.terminate();
  });

  it('two texts from one person at once, one to each process, while the install is closed: one away reply', async () => {
    // Five people, each texting twice at the same moment: one text to A, one to B. Each process decides
    // the away reply for the text it took; one of the two sends it.
    const people = Array.from({ length: 5 }, (_, i) => `+1415555${String(2000 + i)}`);
    const answers = await Promise.all(
      people.flatMap((from) => [
        textIn(from, 'are you open?', { backend: A, to: closedNumber }),
        textIn(from, 'hello?', { backend: B, to: closedNumber }),
      ]),
    );
    expect(answers.filter((r) => r.status !== 200)).toEqual([]);
    const replies = (to: string) => h.sandbox.sentMessages({ to }).filter((m) => m.body === AWAY).length;
    for (const to of people) await expect.poll(() => replies(to), { timeout: 10_000 }).toBeGreaterThan(0);
    // A later text of each (through A) is answered by nothing; once its message is stored, a second reply
    // from either process of the first two would have been sent too.
    for (const from of people)
      expect((await textIn(from, 'still there?', { backend: A, to: closedNumber })).status).toBe(200);
    await expect
      .poll(async () => (await rows(`select id from messages where body = 'still there?'`)).length)
      .toBe(people.length);
    await runUntil(
      'the away replies are handed over',
      async () =>
        (await rows(`select id from messages where body = $1 and status = 'queued'`, [AWAY])).length === 0,
    );
    await h.run(1_000);
    expect(people.map(replies)).toEqual(people.map(() => 1));
    const stored = await rows(
      `select count(*)::int as n from messages where body = $1 and direction = 'out' group by to_number`,
      [AWAY],
    );
    expect(stored.map((r) => r.n)).toEqual(people.map(() => 1));
  });

  it("the sandbox's own screens answer on either process, and an agency may choose the sandbox on either", async () => {
    const token = await h.token(h.seed.a.businessAdmin.email);
    const phones = async (backend: number) =>
      request(lb, { path: '/api/v1/sandbox/phones', headers: bearer(token), backend });
    const [onA, onB] = [await phones(A), await phones(B)];
    expect(onA.status, onA.body).toBe(200);
    expect(onB.status, onB.body).toBe(200);
    expect(JSON.parse(onB.body).data).toEqual(JSON.parse(onA.body).data);
    expect(JSON.parse(onB.body).data.length).toBeGreaterThan(0);
    // Driving a phone from B drives the one sandbox (A's).
    const dial = await request(lb, {
      method: 'POST',
      path: `/api/v1/sandbox/phones/${encodeURIComponent('+14155550304')}/texts`,
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ to: number, body: 'from the sandbox screen on B' }),
      backend: B,
    });
    expect(dial.status, dial.body).toBe(200);
    await runUntil('the text is stored', async () => {
      const found = await rows(`select 1 from messages where body = 'from the sandbox screen on B'`);
      return found.length === 1;
    });
    // A recording's file is served wherever the request lands (here: none by that sid, on both).
    const sid = `RE${'0'.repeat(32)}`;
    for (const backend of [A, B])
      expect((await request(lb, { path: `/sandbox/recordings/${sid}`, backend })).status).toBe(404);

    // Agency B's admin chooses the sandbox through B (which holds none): a sandbox account is made.
    const admin = await h.token(h.seed.b.agencyAdmin.email);
    const chosen = await request(lb, {
      method: 'PUT',
      path: '/api/v1/agencies/twilio-config',
      headers: { 'content-type': 'application/json', ...bearer(admin) },
      body: JSON.stringify({ sandbox: true }),
      backend: B,
    });
    expect(chosen.status, chosen.body).toBe(200);
    const account = await agencyCarrierAccount(h.t.app.deps, h.seed.b.agency.id);
    expect(account?.sandbox).toBe(true);
    expect(account?.accountSid).not.toBe(accountSid);
    // The sandbox (in A) takes the new account's credentials.
    if (!account) throw new Error('no account');
    const fetched = await h.t.app.deps.carrier.forAccount(account).fetchAccount();
    expect(fetched).toMatchObject({ sid: account.accountSid });
  });

  it('no process crashed', () => {
    for (const c of children) expect(c.child.exitCode, c.out()).toBeNull();
  });
});
