// Issue 17: an open /ws socket outlived its session: after a logout, a password change that ended other
// sessions, or the end of an impersonation, it still received new_message with the text. A socket now
// closes when its session ends (a domain event the hub carries, across processes through Redis) and when
// its session expires (ADR 050). Real WebSocket clients on a real listening server.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bearer, createTestApp, login, PASSWORD, seedTenants, type TestApp } from '../../../test/helpers.ts';
import { hasTestRedis, TEST_REDIS_URL } from '../../../test/redis.ts';
import { hashToken } from '../auth/tokens.ts';
import { channel } from './hub.ts';

type Seed = Awaited<ReturnType<typeof seedTenants>>;
type Socket = { ws: WebSocket; got: { type: string; data?: unknown }[]; closed: Promise<number> };

const SESSION_ENDED = 4001;
const BOUND = { timeout: 10_000 };

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
}

/** A socket that has joined its channels; `closed` resolves with the close code. */
function connect(url: string, token: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ['bearer', token]);
    const got: Socket['got'] = [];
    const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
    ws.on('message', (raw) => {
      const msg = JSON.parse(raw.toString());
      got.push(msg);
      if (msg.type === 'ready') resolve({ ws, got, closed });
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`refused: ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

/** Resolves with the close code, or fails when the socket is still open after the bound. */
async function closedWithin(s: Socket, ms = 10_000): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the socket is still open')), ms);
  });
  try {
    return await Promise.race([s.closed, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A new_message published to the business after the socket closed reaches `witness` (a socket of a live
 * session of the same business) and not the closed one.
 */
async function noMoreNews(app: FastifyInstance, businessId: number, closed: Socket, witness: Socket) {
  const before = closed.got.length;
  const text = `after the end ${Math.random()}`;
  await app.deps.realtime.publish(channel.business(businessId), { type: 'new_message', data: { text } });
  await expect
    .poll(() => witness.got.some((m) => JSON.stringify(m.data ?? null).includes(text)), BOUND)
    .toBe(true);
  expect(closed.got.length).toBe(before);
}

describe('/ws sockets end with their session', () => {
  let t: TestApp;
  let seed: Seed;
  let url: string;
  const open: WebSocket[] = [];
  const track = (s: Socket) => {
    open.push(s.ws);
    return s;
  };
  beforeAll(async () => {
    t = await createTestApp();
    seed = await seedTenants(t.db);
    url = await listen(t.app);
  });
  afterAll(async () => {
    for (const ws of open) ws.terminate();
    await t?.close();
  });

  /** Agency A's admin acting as business A's user: the impersonation token and the admin's own. */
  async function impersonateBusinessUser() {
    const agencyToken = await login(t.app, seed.a.agencyAdmin.email);
    const imp = await t.app.inject({
      method: 'POST',
      url: `/api/v1/impersonate/${seed.a.businessUser.id}`,
      headers: bearer(agencyToken),
    });
    expect(imp.statusCode, imp.body).toBe(200);
    return { token: imp.json().access_token as string, agencyToken };
  }

  it('a logout closes the socket of that session, and only that one', async () => {
    const user = seed.a.businessUser;
    const ending = await login(t.app, user.email);
    const staying = await login(t.app, user.email);
    const s = track(await connect(url, ending));
    const witness = track(await connect(url, staying));
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(ending) });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
    await noMoreNews(t.app, seed.a.business.id, s, witness);
    expect(witness.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("a password change closes the sockets of the user's other sessions, not the one that changed it", async () => {
    const user = seed.a.businessAdmin;
    const other = await login(t.app, user.email);
    const current = await login(t.app, user.email);
    const s = track(await connect(url, other));
    const witness = track(await connect(url, current));
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/profile',
      headers: bearer(current),
      payload: {
        first_name: 'bizadmin',
        last_name: 'A',
        email: user.email,
        current_password: PASSWORD,
        password: 'another-pass-22',
        password_confirmation: 'another-pass-22',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
    await noMoreNews(t.app, seed.a.business.id, s, witness);
  });

  it('the end of an impersonation closes the socket opened with its token', async () => {
    const { token } = await impersonateBusinessUser();
    const s = track(await connect(url, token));
    const witness = track(await connect(url, await login(t.app, seed.a.businessUser.email)));
    const stop = await t.app.inject({ method: 'DELETE', url: '/api/v1/impersonate', headers: bearer(token) });
    expect(stop.statusCode, stop.body).toBe(200);
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
    await noMoreNews(t.app, seed.a.business.id, s, witness);
  });

  it("the impersonator's logout closes the impersonation's socket too", async () => {
    const { token, agencyToken } = await impersonateBusinessUser();
    const s = track(await connect(url, token));
    await t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(agencyToken) });
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
  });

  it('a session that expires closes its socket when it expires', async () => {
    const token = await login(t.app, seed.b.businessUser.email);
    const witness = track(await connect(url, await login(t.app, seed.b.businessUser.email)));
    // The session has two seconds left (as a real one has at the end of its 14 days).
    await t.pool.query(
      `update auth_tokens set expires_at = now() + interval '2 seconds' where token_hash = $1`,
      [hashToken(token)],
    );
    const s = track(await connect(url, token));
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
    await noMoreNews(t.app, seed.b.business.id, s, witness);
  });

  it('a logout between the session check and the subscription still closes the socket', async () => {
    // As with Redis, a subscription takes effect only once the hub confirms it: held here until the
    // logout has been announced (to nobody yet), then let go.
    const hub = t.app.deps.realtime;
    const { subscribe, ready } = hub;
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => {
      release = done;
    });
    let reached: () => void = () => undefined;
    const subscribing = new Promise<void>((done) => {
      reached = done;
    });
    hub.subscribe = (channels, fn) => {
      if (!channels.some((c) => c.startsWith('session:'))) return subscribe(channels, fn);
      reached();
      let off: (() => void) | undefined;
      let dropped = false;
      void held.then(() => {
        if (!dropped) off = subscribe(channels, fn);
      });
      return () => {
        dropped = true;
        off?.();
      };
    };
    hub.ready = () => held;
    try {
      const token = await login(t.app, seed.a.businessUser.email);
      const ws = new WebSocket(url, ['bearer', token]);
      open.push(ws);
      const got: Socket['got'] = [];
      ws.on('message', (raw) => got.push(JSON.parse(raw.toString())));
      const s: Socket = { ws, got, closed: new Promise((done) => ws.on('close', (code) => done(code))) };
      await subscribing;
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(token) });
      expect(res.statusCode).toBe(200);
      release();
      expect(await closedWithin(s)).toBe(SESSION_ENDED);
      expect(got.some((m) => m.type === 'ready')).toBe(false);
    } finally {
      release();
      hub.subscribe = subscribe;
      hub.ready = ready;
    }
  });

  /** A socket of a fresh session of business A's user, and the session's token. */
  async function businessUserSocket() {
    const token = await login(t.app, seed.a.businessUser.email);
    return { token, s: track(await connect(url, token)) };
  }

  /** The session is over for good: the token is refused, even once the tenant is back. */
  async function ended(token: string) {
    const res = await t.app.inject({ url: '/api/v1/profile', headers: bearer(token) });
    expect(res.statusCode).toBe(401);
  }

  it("the agency archiving the business closes its users' sockets", async () => {
    const agency = await login(t.app, seed.a.agencyAdmin.email);
    const { token, s } = await businessUserSocket();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/business/${seed.a.business.id}/archive`,
      headers: bearer(agency),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
    const back = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/business/${seed.a.business.id}/restore`,
      headers: bearer(agency),
    });
    expect(back.statusCode, back.body).toBe(200);
    await ended(token);
  });

  it("the agency switching the business off closes its users' sockets", async () => {
    const agency = await login(t.app, seed.a.agencyAdmin.email);
    const { token, s } = await businessUserSocket();
    const switchTo = (active: boolean) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v1/businesses/${seed.a.business.id}/active`,
        headers: bearer(agency),
        payload: { active },
      });
    const off = await switchTo(false);
    expect(off.statusCode, off.body).toBe(200);
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
    expect((await switchTo(true)).statusCode).toBe(200);
    await ended(token);
    // Switched on again, the user signs in anew.
    track(await connect(url, await login(t.app, seed.a.businessUser.email)));
  });

  // Last of the file's first app: agency A stays archived.
  it("an admin archiving the agency closes its business users' sockets", async () => {
    const admin = await login(t.app, seed.admin.email);
    const { token, s } = await businessUserSocket();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/agencies/${seed.a.agency.id}`,
      headers: bearer(admin),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
    await ended(token);
  });
});

const hasRedis = await hasTestRedis('the two-process socket-closing test');

describe.skipIf(!hasRedis)('/ws sockets end with their session across two processes (Redis)', () => {
  let t: TestApp;
  let seed: Seed;
  let two: FastifyInstance;
  const open: WebSocket[] = [];
  beforeAll(async () => {
    t = await createTestApp({ REDIS_URL: TEST_REDIS_URL });
    seed = await seedTenants(t.db);
    const { buildApp } = await import('../../app.ts');
    two = await buildApp({ config: t.config, db: t.db });
    await two.ready();
  });
  afterAll(async () => {
    for (const ws of open) ws.terminate();
    await two?.close();
    await t?.close();
  });

  it('a logout on process one closes the socket held by process two', async () => {
    const url = await listen(two);
    const token = await login(t.app, seed.a.businessUser.email);
    const s = await connect(url, token);
    const witness = await connect(url, await login(t.app, seed.a.businessUser.email));
    open.push(s.ws, witness.ws);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(await closedWithin(s)).toBe(SESSION_ENDED);
    await noMoreNews(t.app, seed.a.business.id, s, witness);
  });
});
