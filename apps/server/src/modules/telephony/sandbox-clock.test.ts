// The sandbox's manual clock on the Sandbox Phones API (ADR 073): a person (or a browser test) moves it on,
// and what was due meanwhile happens: here a callback nobody answers is missed once its ring time passed.
// On a real clock it cannot be moved; SANDBOX_CLOCK=manual is refused where it would mislead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadConfig } from '../../platform/config.ts';
import { type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
let token: string;

beforeAll(async () => {
  h = await telephonyApp();
  token = await h.token(h.seed.a.businessAdmin.email);
});
afterAll(() => h?.close());

const clock = async (t: TestApp, tok: string) => {
  const res = await t.app.inject({ url: '/api/v1/sandbox/clock', headers: bearer(tok) });
  return res;
};
const advance = (t: TestApp, tok: string, seconds: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/sandbox/clock/advance',
    headers: bearer(tok),
    payload: { seconds },
  });

describe('the sandbox clock', () => {
  it('tells the time of a manual clock and moves it on, running what fell due', async () => {
    const before = await clock(h.t, token);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data.manual).toBe(true);
    const start = Date.parse(before.json().data.now);
    expect(start).toBe(h.clock.now());

    const install = await h.install({ timeout: 20 });
    const res = await h.callback(install.key, { phone: '+14155550177', name: 'Ida' });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    const outcome = async () =>
      (await h.t.pool.query('select outcome from calls where id = $1', [callId])).rows[0]?.outcome;
    expect(await outcome()).toBe('in_progress');

    const moved = await advance(h.t, token, 90);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(Date.parse(moved.json().data.now)).toBe(start + 90_000);
    // Nobody answered within the ring time, which only the clock's moving let pass.
    expect(await outcome()).toBe('missed');
  });

  it('refuses a move out of range, changing nothing', async () => {
    const now = h.clock.now();
    for (const seconds of [0, -5, 31 * 86_400 + 1, 1.5, 'soon']) {
      const res = await advance(h.t, token, seconds);
      expect(res.statusCode, res.body).toBe(422);
    }
    expect((await advance(h.t, token, 0)).json().message).toContain('1 second to 31 days');
    expect(h.clock.now()).toBe(now);
  });

  it('cannot move a real clock; SANDBOX_CLOCK=manual gives a manual one', async () => {
    for (const [env, manual] of [
      [{}, false],
      [{ SANDBOX_CLOCK: 'manual' }, true],
    ] as const) {
      const other = await telephonyApp(
        {},
        { t: await createTestApp({ PUBLIC_URL: 'http://localhost:3000', ...env }) },
      );
      try {
        const tok = await other.token(other.seed.a.businessAdmin.email);
        const now = await clock(other.t, tok);
        expect(now.statusCode, now.body).toBe(200);
        expect(now.json().data.manual).toBe(manual);
        const moved = await advance(other.t, tok, 60);
        expect(moved.statusCode, moved.body).toBe(manual ? 200 : 409);
        if (!manual) expect(moved.json().message).toContain('real time');
      } finally {
        await other.close();
      }
    }
  });

  it('is manual only with this process’s own sandbox, and never in production', () => {
    const base = { DATABASE_URL: 'postgres://x@127.0.0.1/x' };
    expect(loadConfig({ ...base, SANDBOX_CLOCK: 'manual' }).sandboxClock).toBe('manual');
    expect(loadConfig(base).sandboxClock).toBe('real');
    expect(() => loadConfig({ ...base, SANDBOX_CLOCK: 'manual', CARRIER_SANDBOX: 'off' })).toThrow(
      /SANDBOX_CLOCK/,
    );
    expect(() =>
      loadConfig({ ...base, SANDBOX_CLOCK: 'manual', NODE_ENV: 'production', SECRETS_KEY: Buffer.alloc(32, 7).toString('base64') }),
    ).toThrow(/SANDBOX_CLOCK/);
    expect(() => loadConfig({ ...base, SANDBOX_CLOCK: 'sometimes' })).toThrow(
      /SANDBOX_CLOCK must be real or manual/,
    );
  });
});
