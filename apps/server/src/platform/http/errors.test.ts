import { ZErrorResponse } from '@stn/contracts/http';
import { describe, expect, it } from 'vitest';
import { bearer, login, useSuite } from '../../../test/helpers.ts';

// The error envelope carries a machine-readable code beside the translated message, so that clients
// and screens test codes, never wording; a finer reason rides along where one helps.
const c = useSuite({ env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '2' } });
async function expectCode(
  res: { statusCode: number; json: () => unknown },
  status: number,
  code: string,
  reason?: string,
) {
  expect(res.statusCode).toBe(status);
  const body = ZErrorResponse.parse(res.json());
  expect(body.code).toBe(code);
  expect(body.reason).toBe(reason);
}

describe('error codes', () => {
  it('names every kind of error with its code, the same in every language', async () => {
    const token = await login(c.t.app, c.seed.a.businessUser.email);
    for (const lang of ['en', 'es', 'br']) {
      const headers = { 'accept-language': lang };
      await expectCode(
        await c.t.app.inject({ method: 'GET', url: '/api/v1/nothing', headers }),
        404,
        'NOT_FOUND',
      );
      await expectCode(
        await c.t.app.inject({ method: 'GET', url: '/api/v1/profile', headers }),
        401,
        'UNAUTHENTICATED',
      );
      await expectCode(
        await c.t.app.inject({
          method: 'GET',
          url: '/api/v1/agencies',
          headers: { ...headers, ...bearer(token) },
        }),
        403,
        'FORBIDDEN',
      );
      await expectCode(
        await c.t.app.inject({ method: 'POST', url: '/api/v1/login', headers, payload: { email: 'x' } }),
        422,
        'VALIDATION',
      );
      await expectCode(
        await c.t.app.inject({
          method: 'POST',
          url: '/api/v1/login',
          headers: { ...headers, 'content-type': 'application/json' },
          payload: '{"email":',
        }),
        400,
        'BAD_REQUEST',
      );
    }
  });

  it('keeps the HTTP-level code and adds the finer reason for a locked sign-in', async () => {
    const email = c.seed.b.agencyUser.email;
    for (let i = 0; i < 2; i++)
      await c.t.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: { email, password: 'wrong-one-1' },
      });
    const res = await c.t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { email, password: 'wrong-one-1' },
    });
    await expectCode(res, 429, 'TOO_MANY', 'auth.throttle');
  });
});

describe('a value the database refuses', () => {
  it('answers 422, not 500, for any PostgreSQL data exception the route did not foresee', async () => {
    const Fastify = (await import('fastify')).default;
    const { registerErrorHandling } = await import('./errors.ts');
    const app = Fastify();
    app.decorateRequest('lang', 'en');
    registerErrorHandling(app);
    // Real PostgreSQL errors: an int4 beyond its range (22003) and a NUL byte in text (22021).
    app.get('/int', async () => c.t.pool.query('select $1::int as n', ['3000000000']));
    app.get('/nul', async () => c.t.pool.query('select $1::text as s', ['a\u0000b']));
    app.get('/other', async () => c.t.pool.query('select * from no_such_table'));
    try {
      for (const url of ['/int', '/nul']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(422);
        expect(res.json()).toMatchObject({
          code: 'VALIDATION',
          message: expect.stringMatching(/out of range/),
        });
      }
      // A fault of ours stays a 500.
      expect((await app.inject({ method: 'GET', url: '/other' })).statusCode).toBe(500);
    } finally {
      await app.close();
    }
  });
});
