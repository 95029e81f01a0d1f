import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { createTestApp, type TestApp, useSuite } from '../../../test/helpers.ts';
import type { Deps } from '../deps.ts';
import { widgetOf, widgetTree } from './tree.ts';

const KEY = 'install-key-of-business-a-0123456789';
const SITE = 'https://dental-a.example.test';
const c = useSuite({
  env: { WIDGET_RATE_PER_ADDRESS: '1000', WIDGET_RATE_PER_INSTALL: '8' },
  // A second citizen of the tree that shows the context a widget route gets.
  plug: (p) =>
    p.widget.routes.push(async (tree) => {
      const schema = { response: { 200: zm.object({ tenant: zm.unknown(), by: zm.unknown() }) } };
      tree.get('/v1/test-context', { schema }, async (request) => {
        const { ctx } = widgetOf(request);
        return { tenant: ctx.tenant, by: ctx.by };
      });
    }),
});

beforeAll(async () => {
  await c.t.pool.query(
    `insert into installs (agency_id, business_id, key, name, settings) values ($1, $2, $3, 'Main site', $4)`,
    [c.seed.a.agency.id, c.seed.a.business.id, KEY, { color: '#0a7', greeting: 'Hi there' }],
  );
  await c.t.pool.query(
    `insert into installs (agency_id, business_id, key, name, status) values ($1, $2, 'disabled-key-000000000000', 'Old', 'archived')`,
    [c.seed.b.agency.id, c.seed.b.business.id],
  );
});

const get = (url: string, headers: Record<string, string> = {}, ip = '203.0.113.10') =>
  c.t.app.inject({ method: 'GET', url, headers: { origin: SITE, ...headers }, remoteAddress: ip });

describe('/api/widget', () => {
  it('answers the install config for a valid key, with a CORS grant for that origin only and an ETag', async () => {
    const res = await get('/api/widget/v1/config', { 'x-install-key': KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: { id: expect.any(Number), settings: { color: '#0a7', greeting: 'Hi there' } },
    });
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Origin/);
    expect(res.headers['cache-control']).toMatch(/public/);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await get('/api/widget/v1/config', { 'x-install-key': KEY, 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // The key may come as a query parameter too (a script tag cannot set headers).
    const byQuery = await get(`/api/widget/v1/config?key=${KEY}`);
    expect(byQuery.statusCode).toBe(200);
    expect(byQuery.headers.etag).toBe(etag);
  });

  it('answers the CORS preflight a browser sends before every widget call from another site (issue 17)', async () => {
    // What Chromium sends before GET /v1/config with X-Install-Key, and before a JSON POST.
    for (const [url, method, headers] of [
      ['/api/widget/v1/config', 'GET', 'x-install-key'],
      ['/api/widget/v1/callback', 'POST', 'content-type,x-install-key'],
      ['/api/widget/v1/text/reply', 'POST', 'content-type,x-install-key'],
      ['/api/widget/v1/conversation?token=x', 'GET', 'x-install-key'],
    ] as const) {
      const res = await c.t.app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin: SITE,
          'access-control-request-method': method,
          'access-control-request-headers': headers,
        },
        remoteAddress: '203.0.113.77',
      });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(SITE);
      expect(String(res.headers['access-control-allow-methods'])).toMatch(/POST/);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/x-install-key/);
      expect(String(res.headers['access-control-allow-headers'])).toMatch(/content-type/);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    // A path the tree does not have is still no route of ours.
    const other = await c.t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/login',
      headers: { origin: SITE, 'access-control-request-method': 'POST' },
    });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('gives widget routes a visitor of the install in the install business tenant', async () => {
    const res = await get('/api/widget/v1/test-context', { 'x-install-key': KEY });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      tenant: { level: 'business', agencyId: c.seed.a.agency.id, businessId: c.seed.a.business.id },
      by: { kind: 'visitor', installId: expect.any(Number), ip: '203.0.113.10' },
    });
  });

  it('answers 401 with no CORS grant without a key, with a wrong key or a disabled install', async () => {
    const cases: Record<string, string>[] = [
      {},
      { 'x-install-key': 'wrong-key' },
      { 'x-install-key': 'disabled-key-000000000000' },
    ];
    for (const headers of cases) {
      const res = await get('/api/widget/v1/config', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED' });
      // A sentence for the page's owner, not a locale key.
      expect(res.json().message).toMatch(/install key/);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers.etag).toBeUndefined();
    }
  });

  it('does not accept an API bearer token instead of an install key', async () => {
    const login = await c.t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: c.seed.a.businessAdmin.email, password: 'correct-horse-1' },
    });
    const res = await get('/api/widget/v1/config', { authorization: `Bearer ${login.json().access_token}` });
    expect(res.statusCode).toBe(401);
  });

  it('limits requests per install (429), wherever they come from', async () => {
    const codes: number[] = [];
    // The bucket holds 8; earlier tests used some of it.
    for (let i = 0; i < 10; i++) {
      const res = await get('/api/widget/v1/config', { 'x-install-key': KEY }, `198.51.100.${i}`);
      codes.push(res.statusCode);
      if (res.statusCode === 429)
        expect(res.json()).toMatchObject({ code: 'TOO_MANY', reason: 'widget.rate_install' });
    }
    expect(codes).toContain(429);
    expect(codes.filter((c) => c === 200).length).toBeLessThanOrEqual(8);
  });
});

describe('/api/widget per-address limit', () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await createTestApp({ WIDGET_RATE_PER_ADDRESS: '3', WIDGET_RATE_PER_INSTALL: '1000' });
  });
  afterAll(async () => {
    await u?.close();
  });

  it('limits one address (429), while another address still gets its answer', async () => {
    const call = (ip: string) =>
      u.app.inject({ method: 'GET', url: '/api/widget/v1/config?key=nope', remoteAddress: ip });
    const codes = [];
    for (let i = 0; i < 5; i++) codes.push((await call('192.0.2.1')).statusCode);
    expect(codes).toEqual([401, 401, 401, 429, 429]);
    const limited = await call('192.0.2.1');
    expect(limited.json()).toMatchObject({ code: 'TOO_MANY', reason: 'widget.rate_address' });
    // The widget on the page can read the refusal (and say so), never with credentials.
    const fromSite = await u.app.inject({
      method: 'GET',
      url: '/api/widget/v1/config?key=nope',
      remoteAddress: '192.0.2.1',
      headers: { origin: 'https://shop.example' },
    });
    expect(fromSite.statusCode).toBe(429);
    expect(fromSite.headers['access-control-allow-origin']).toBe('https://shop.example');
    expect(fromSite.headers['access-control-allow-credentials']).toBeUndefined();
    expect((await call('192.0.2.2')).statusCode).toBe(401);
  });
});

describe('/api/widget routes', () => {
  it('are refused at registration without a 200 response schema (what a visitor gets is a contract)', async () => {
    const tree = (routes: Parameters<typeof widgetTree>[1]['routes']) => {
      const app = Fastify();
      // The tree reads only its two limits from the platform when it registers.
      const deps = { config: { widgetRatePerAddress: 10, widgetRatePerInstall: 10 } } as Deps;
      app.register(widgetTree, { prefix: '/api/widget', deps, resolve: async () => null, routes });
      return app;
    };
    const without = tree([(t) => void t.get('/v1/loose', async () => ({ internal: 1 }))]);
    await expect(without.ready()).rejects.toThrow(/GET \/api\/widget\/v1\/loose.*response schema/);
    const declared = tree([
      (t) =>
        void t.get('/v1/strict', { schema: { response: { 200: { type: 'object' } } } }, async () => ({})),
    ]);
    await expect(declared.ready()).resolves.toBeDefined();
    await Promise.all([without.close(), declared.close()]);
  });
});
