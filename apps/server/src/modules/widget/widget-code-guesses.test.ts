// Review of issue 17: wrong guesses of the visitor code (ADR 048) were counted in each process's memory,
// so more processes, or a restart, gave more guesses. They are counted in PostgreSQL now: a code locks
// after CODE_GUESSES_PER_CODE wrong guesses, a phone after CODE_GUESSES_PER_PHONE_DAY a day, whichever
// process is asked. Two apps on one database (a third one started later is the restart).

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';
import { CODE_GUESSES_PER_CODE, CODE_GUESSES_PER_PHONE_DAY } from './service.ts';

const SITE = 'https://dental.example.test';
let h: Telephony;
const others: FastifyInstance[] = [];

const post = (app: FastifyInstance, key: string, url: string, payload: Record<string, unknown>) =>
  app.inject({
    method: 'POST',
    url: `/api/widget${url}`,
    headers: { 'x-install-key': key, origin: SITE },
    payload,
  });

/** Another process on the same database. */
async function anotherProcess(): Promise<FastifyInstance> {
  const app = await buildApp({ config: h.t.config, db: h.t.db });
  await app.ready();
  others.push(app);
  return app;
}

beforeAll(async () => {
  const clock = new ManualClock(Date.now());
  const t = await createTestApp(
    { WIDGET_RATE_PER_INSTALL: '100000', PUBLIC_URL: 'http://localhost:3000' },
    { sandboxClock: clock },
  );
  h = await telephonyApp({}, { clock, t });
});
afterAll(async () => {
  for (const app of others) await app.close();
  await h?.close();
  await h?.t.close();
});

describe('wrong visitor codes are counted in the database', () => {
  it('lock a code and then the phone, across processes and a restart', async () => {
    const install = await h.install();
    await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
    const phone = '+14155553201';
    const start = async (message: string) => {
      const res = await post(h.t.app, install.key, '/v1/text', { phone, message });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.token as string;
    };
    const two = await anotherProcess();
    const apps = [h.t.app, two];
    const guess = (i: number, token: string, code = '000000') =>
      post(apps[i % 2] as FastifyInstance, install.key, '/v1/text/verify', { token, code });

    // One code: its wrong guesses alternate between two processes and still run out.
    const first = await start('First');
    const tried: number[] = [];
    for (let i = 0; i <= CODE_GUESSES_PER_CODE; i++) tried.push((await guess(i, first)).statusCode);
    expect(tried).toEqual([...Array(CODE_GUESSES_PER_CODE).fill(422), 429]);
    // A process started later (a restart) refuses it too, even with the right code.
    await h.run(2000);
    const texts = h.sandbox.phones.get(phone).texts;
    const code = /(\d{6}) is your code/.exec(texts.at(-1)?.body ?? '')?.[1];
    expect(code).toBeTruthy();
    const restarted = await anotherProcess();
    const locked = await post(restarted, install.key, '/v1/text/verify', { token: first, code: code ?? '' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toMatch(/Too many wrong codes/);

    // New conversations (new codes) of the same phone: the day's wrong guesses run out for the phone.
    let left = CODE_GUESSES_PER_PHONE_DAY - CODE_GUESSES_PER_CODE;
    while (left > 0) {
      const token = await start(`Again ${left}`);
      for (let i = 0; i < Math.min(left, CODE_GUESSES_PER_CODE); i++)
        expect((await guess(i, token)).statusCode).toBe(422);
      left -= Math.min(left, CODE_GUESSES_PER_CODE);
    }
    const fresh = await start('Once more');
    expect((await guess(1, fresh)).statusCode).toBe(429);
    // Another phone is not locked by it.
    const other = await post(two, install.key, '/v1/text', { phone: '+14155553202', message: 'Hello' });
    expect(other.statusCode, other.body).toBe(200);
    const otherGuess = await guess(1, other.json().data.token);
    expect(otherGuess.statusCode).toBe(422);
  });
});
