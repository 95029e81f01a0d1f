import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';
import { bearer, login, useSuite } from './helpers.ts';

const c = useSuite();
/** A second app on the same database, with routes that fail, and its error log. */
let boom: FastifyInstance;
const logLines: string[] = [];
/** Every response seen, to check the headers every answer must carry. */
const seen: { label: string; res: LightMyRequestResponse }[] = [];

beforeAll(async () => {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'error', DATABASE_URL: c.t.config.databaseUrl });
  const logger = pino({ level: 'error' }, { write: (line: string) => void logLines.push(line) });
  boom = await buildApp({ config, db: c.t.db, logger });
  boom.get('/api/v1/__boom', { config: { access: 'public' } }, () => {
    throw new Error('secret internals');
  });
  boom.get('/api/v1/__boom-db', { config: { access: 'public' } }, async () => {
    await c.t.db.execute('select * from secret_table_that_does_not_exist');
    return { success: true };
  });
  await boom.ready();
});
afterAll(async () => {
  await boom?.close();
});

async function call(label: string, app: FastifyInstance, opts: InjectOptions) {
  const res = await app.inject(opts);
  seen.push({ label, res });
  return res;
}

describe('404', () => {
  it('answers an unknown /api path with the error envelope', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/no-such-thing'],
      ['POST', '/api/v1/no-such-thing'],
      ['GET', '/api/nothing'],
      ['GET', '/api/v1/login'],
      ['DELETE', '/api/v1/profile'],
    ] as const) {
      const res = await call(`404 ${method} ${url}`, c.t.app, { method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'Not found.' });
    }
  });

  it('is a 404, not a 401, with a bad token, and speaks the caller language', async () => {
    const res = await call('404 es', c.t.app, {
      method: 'GET',
      url: '/api/v1/no-such-thing',
      headers: { ...bearer('garbage'), 'accept-language': 'es-ES,es;q=0.9' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, code: 'NOT_FOUND', message: 'No encontrado.' });
  });
});

describe('401 and 403', () => {
  it('answers a protected route without a valid token with 401', async () => {
    for (const authorization of [
      undefined,
      'Bearer nope',
      'Basic dXNlcjpwYXNz',
      'Bearer ',
      `Bearer ${'x'.repeat(300)}`,
    ]) {
      const res = await call('401', c.t.app, {
        method: 'GET',
        url: '/api/v1/profile',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'Unauthenticated.' });
    }
    const es = await call('401 es', c.t.app, {
      method: 'GET',
      url: '/api/v1/auth/check',
      headers: { 'accept-language': 'es' },
    });
    expect(es.json()).toEqual({ success: false, code: 'UNAUTHENTICATED', message: 'No autenticado.' });
  });

  it('answers a route outside the caller role with 403', async () => {
    const token = await login(c.t.app, c.seed.a.businessUser.email);
    const res = await call('403', c.t.app, {
      method: 'GET',
      url: '/api/v1/audit-logs',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      success: false,
      code: 'FORBIDDEN',
      message: 'This action is unauthorized.',
    });
  });
});

describe('422', () => {
  it('lists the errors by field; the message is the first field message', async () => {
    const res = await call('422', c.t.app, {
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: 'not-an-email', password: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      success: false,
      code: 'VALIDATION',
      message: 'The email must be a valid email address.',
      errors: {
        email: ['The email must be a valid email address.'],
        password: ['The password field is required'],
      },
    });
  });

  it('names missing and wrongly typed fields, in the caller language', async () => {
    const res = await call('422 types', c.t.app, {
      method: 'POST',
      url: '/api/v1/login',
      payload: { password: 5 },
    });
    expect(res.json()).toEqual({
      success: false,
      code: 'VALIDATION',
      message: 'The email field is required',
      errors: { email: ['The email field is required'], password: ['The password must be a string.'] },
    });
    const es = await call('422 es', c.t.app, {
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: 'x@y.test' },
      headers: { 'accept-language': 'es' },
    });
    expect(es.json()).toEqual({
      success: false,
      code: 'VALIDATION',
      message: 'El campo contraseña es obligatorio',
      errors: { password: ['El campo contraseña es obligatorio'] },
    });
  });

  it('uses the same shape for errors a service raises', async () => {
    const res = await call('422 service', c.t.app, {
      method: 'POST',
      url: '/api/v1/login',
      payload: { email: c.seed.admin.email, password: 'wrong-password' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      success: false,
      code: 'VALIDATION',
      message: 'These credentials do not match our records.',
      errors: { email: ['These credentials do not match our records.'] },
    });
  });
});

describe('400', () => {
  it('answers a malformed JSON body with 400 and no internals', async () => {
    for (const payload of ['{"email":', '{email: 1}', 'null x']) {
      const res = await call('400', c.t.app, {
        method: 'POST',
        url: '/api/v1/login',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        code: 'BAD_REQUEST',
        message: 'The request could not be read.',
      });
      expect(res.body).not.toMatch(/JSON|Unexpected|position|FST_|stack|at /);
    }
  });

  it('answers a body over the limit with 413 in the same envelope', async () => {
    const res = await call('413', c.t.app, {
      method: 'POST',
      url: '/api/v1/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({
      success: false,
      code: 'BAD_REQUEST',
      message: 'The request could not be read.',
    });
  });
});

describe('5xx', () => {
  it('never shows internals, and gives a request id to find the stack in the logs', async () => {
    const res = await call('500', boom, { method: 'GET', url: '/api/v1/__boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({
      success: false,
      code: 'SERVER',
      message: 'Something went wrong on our side. Please try again later.',
      request_id: res.headers['x-request-id'],
    });
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).not.toMatch(/secret|Error|stack/i);
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.reqId === body.request_id);
    expect(logged?.err?.message).toBe('secret internals');
    expect(logged?.err?.stack).toContain('http-conventions.test.ts');
  });

  it('hides a database error too, in the caller language', async () => {
    const res = await call('500 db', boom, {
      method: 'GET',
      url: '/api/v1/__boom-db',
      headers: { 'accept-language': 'es', 'x-request-id': 'trace-500-db' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      code: 'SERVER',
      message: 'Algo salió mal de nuestro lado. Inténtalo de nuevo más tarde.',
      request_id: 'trace-500-db',
    });
    expect(res.body).not.toMatch(/secret_table|relation|select/i);
  });
});

describe('headers', () => {
  it('echoes a supplied x-request-id and makes one up otherwise', async () => {
    const given = await call('echo', c.t.app, {
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'my-trace-123' },
    });
    expect(given.headers['x-request-id']).toBe('my-trace-123');
    const a = await call('fresh a', c.t.app, { method: 'GET', url: '/healthz' });
    const b = await call('fresh b', c.t.app, { method: 'GET', url: '/healthz' });
    expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('puts a request id and the security headers on every response seen in this file', async () => {
    await call('site data', c.t.app, { method: 'GET', url: '/api/v1/settings/site-data/localhost' });
    const statuses = new Set(seen.map((s) => s.res.statusCode));
    for (const status of [200, 400, 401, 403, 404, 413, 422, 500]) expect(statuses).toContain(status);
    for (const { label, res } of seen) {
      expect(res.headers['x-request-id'], label).toBeTruthy();
      expect(res.headers['x-content-type-options'], label).toBe('nosniff');
      expect(res.headers['content-security-policy'], label).toContain("default-src 'self'");
      expect(res.headers['content-security-policy'], label).toContain("script-src 'self'");
      expect(res.headers['x-frame-options'], label).toBe('SAMEORIGIN');
    }
  });
});

describe('health and docs', () => {
  it('GET /healthz answers ok', async () => {
    const res = await c.t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /api/docs answers the HTML page, loading only its own scripts', async () => {
    const res = await c.t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('<div id="swagger-ui">');
    // The page's CSP allows no inline script: every script is a file of the docs.
    const scripts = [...res.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, inline] of scripts) {
      expect(attrs).toMatch(/src="\/api\/docs\//);
      expect(inline?.trim()).toBe('');
    }
    const init = await c.t.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
  });

  describe('GET /api/docs/json', () => {
    type Operation = {
      responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
      requestBody?: { content?: Record<string, { schema?: unknown }> };
      parameters?: { in: string; name: string }[];
    };
    let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };

    beforeAll(async () => {
      // Public: no token.
      const res = await c.t.app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      doc = res.json();
    });

    it('is an OpenAPI 3 document with the API routes', () => {
      expect(doc.openapi).toMatch(/^3\./);
      for (const p of ['/api/v1/login', '/api/v1/impersonate/{id}', '/api/v1/settings/site-data/{domain}']) {
        expect(Object.keys(doc.paths)).toContain(p);
      }
      expect(doc.paths['/api/v1/impersonate/{id}']?.post?.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'id' })]),
      );
      // Internal routes stay out of it.
      expect(Object.keys(doc.paths)).not.toContain('/healthz');
    });

    /** The routes the app serves, read from its route tree, as "METHOD /path/{param}". */
    function servedApiRoutes(app: FastifyInstance): string[] {
      const stack: string[] = [];
      const out: string[] = [];
      for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
        const m = line.match(/^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/);
        if (!m) continue;
        const depth = (m[1]?.length ?? 0) / 4;
        const path = (stack[depth - 1] ?? '') + m[2];
        stack[depth] = path;
        stack.length = depth + 1;
        if (!path.startsWith('/api/v1/')) continue;
        for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD')) {
          out.push(`${method} ${path.replace(/:(\w+)/g, '{$1}')}`);
        }
      }
      return out.sort();
    }

    it('documents every /api/v1 route with its request and response schemas', () => {
      const served = servedApiRoutes(c.t.app);
      // The reading of the route tree works: known routes, with prefix-shared paths, are there.
      expect(served).toEqual(
        expect.arrayContaining([
          'POST /api/v1/login',
          'POST /api/v1/impersonate/{id}',
          'DELETE /api/v1/impersonate',
          'GET /api/v1/settings/site-data/{domain}',
          'PUT /api/v1/setting',
          'GET /api/v1/profile',
          'PUT /api/v1/profile',
        ]),
      );
      expect(served.length).toBeGreaterThanOrEqual(19);
      // Actions named by their path take no body.
      const bodyless =
        /\/(logout|impersonate\/\{id\}|restore|install-stats|cert|archive|reset-usage|reset-password|send-verification|verify-email|release-number|check-number|disable-landline-number)$/;
      // The route tree prints one node for a parameter that several routes name differently
      // (':id|:agency_id'), so paths are compared with their parameter names left out.
      const shape = (route: string) => route.replace(/\{[\w|{}]+\}/g, '{}');
      const byShape = new Map<string, string>();
      for (const [p, ops] of Object.entries(doc.paths)) {
        for (const m of Object.keys(ops)) byShape.set(shape(`${m.toUpperCase()} ${p}`), p);
      }
      for (const route of served) {
        const [method = ''] = route.split(' ');
        const path = byShape.get(shape(route)) ?? '';
        const op = doc.paths[path]?.[method.toLowerCase()];
        expect(op, `${route} is not documented`).toBeDefined();
        expect(
          // JSON, or a file (CSV exports) with its own media type.
          Object.values(op?.responses?.['200']?.content ?? {})[0]?.schema,
          `${route} 200 schema`,
        ).toBeDefined();
        for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
          expect(op?.parameters, `${route} path parameter ${name}`).toEqual(
            expect.arrayContaining([expect.objectContaining({ in: 'path', name })]),
          );
        }
        if ((method === 'POST' || method === 'PUT') && !bodyless.test(path)) {
          expect(
            op?.requestBody?.content?.['application/json']?.schema,
            `${route} body schema`,
          ).toBeDefined();
        }
      }
      // Nothing is documented that is not served.
      const documented = Object.entries(doc.paths)
        .filter(([p]) => p.startsWith('/api/v1/'))
        .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
        .filter((r) => !r.startsWith('HEAD '))
        .map(shape)
        .sort();
      expect(documented).toEqual(served.map(shape).sort());
    });
  });
});
