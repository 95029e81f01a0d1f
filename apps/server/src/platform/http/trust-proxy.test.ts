// Issue 17: TRUST_PROXY trusted every hop, so a client-written X-Forwarded-For chose the address that every
// per-address limit counts (the sign-in lock, the public e-mail checks, the widget). It now takes a hop
// count or the proxies' addresses, as Fastify's trustProxy does, and `true` is refused (ADR 050).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, seedTenants, type TestApp } from '../../../test/helpers.ts';
import { ConfigError, loadConfig } from '../config.ts';

const PROXY = '10.9.8.7';
const CLIENT = '203.0.113.7';
const OTHER_CLIENT = '198.51.100.9';
const LOCKED = 'Too many sign-in attempts. Please try again in 15 minutes.';

describe('TRUST_PROXY settings', () => {
  it('takes a hop count, or the proxies as addresses and CIDR ranges; off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.1',
      '10.1.0.0/16',
      'fd00::/8',
    ]);
    // Loopback is trusted only when listed (a proxy on the same machine), by address or by name.
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1,Loopback' }).trustProxy).toEqual(['10.0.0.1', 'loopback']);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
  });

  it('refuses `true` (every hop) and addresses that are not addresses, saying what to write', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: "true" would trust every hop.*the number of proxies in front \(e\.g\. 1\) or their addresses/,
    );
    for (const bad of ['10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '-1', '1.5']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
    }
  });
});

describe('behind one proxy (TRUST_PROXY=1) a forged X-Forwarded-For chooses no address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: '1',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '3',
      PUBLIC_CHECK_RATE_PER_ADDRESS: '2',
    });
    await seedTenants(t.db);
  });
  afterAll(() => t?.close());

  /** A request that came through the proxy: the client wrote `forged`, the proxy appended the client. */
  const viaProxy = (forged: string, client = CLIENT) => ({
    remoteAddress: PROXY,
    headers: { 'x-forwarded-for': `${forged}, ${client}` },
  });

  it('the sign-in lock per address counts the client the proxy saw, whatever it wrote', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { email: `nobody${i}@nowhere.test`, password: 'wrong-password-1' },
        ...viaProxy(`1.2.3.${i}`),
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().message).toBe(LOCKED);
    }
    expect(statuses).toEqual([422, 422, 422, 429, 429]);
    // Another client behind the same proxy is not locked.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: 'nobody@nowhere.test', password: 'wrong-password-1' },
      ...viaProxy('1.2.3.4', OTHER_CLIENT),
    });
    expect(other.statusCode, other.body).toBe(422);
  });

  it('so does the public e-mail check', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/uniquemailchk',
        payload: { email: `check${i}@nowhere.test` },
        ...viaProxy(`5.6.7.${i}`),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});

describe('with the proxy named (TRUST_PROXY=<its address>) a client reaching the server directly forges nothing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: `${PROXY}/32`, PUBLIC_CHECK_RATE_PER_ADDRESS: '2' });
  });
  afterAll(() => t?.close());

  const check = (i: number, opts: { remoteAddress: string; headers: Record<string, string> }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/uniquemailchk',
      payload: { email: `c${i}@nowhere.test` },
      ...opts,
    });

  it('through the proxy the client it appended counts; directly, the socket address counts', async () => {
    const proxied: number[] = [];
    for (let i = 0; i < 3; i++)
      proxied.push(
        (await check(i, { remoteAddress: PROXY, headers: { 'x-forwarded-for': `9.9.9.${i}, ${CLIENT}` } }))
          .statusCode,
      );
    expect(proxied).toEqual([200, 200, 429]);
    const direct: number[] = [];
    for (let i = 0; i < 3; i++)
      direct.push(
        (await check(10 + i, { remoteAddress: OTHER_CLIENT, headers: { 'x-forwarded-for': `9.9.8.${i}` } }))
          .statusCode,
      );
    expect(direct).toEqual([200, 200, 429]);
  });

  it('another process on the same machine (loopback, not listed) forges nothing either', async () => {
    const local: number[] = [];
    for (let i = 0; i < 3; i++)
      local.push(
        (await check(20 + i, { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': `9.9.7.${i}` } }))
          .statusCode,
      );
    expect(local).toEqual([200, 200, 429]);
  });
});

describe('with a proxy on the same machine listed (TRUST_PROXY=loopback)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: 'loopback', PUBLIC_CHECK_RATE_PER_ADDRESS: '2' });
  });
  afterAll(() => t?.close());

  it('the client the local proxy appended counts', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/uniquemailchk',
        payload: { email: `l${i}@nowhere.test` },
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `203.0.113.${10 + i}` },
      });
      statuses.push(res.statusCode);
    }
    // Three clients, two checks each allowed: none is refused.
    expect(statuses).toEqual([200, 200, 200]);
  });
});
