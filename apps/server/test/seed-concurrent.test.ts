// Several processes started at once on a new database (issue 27, ADR 098): each runs the first start's
// seeding; one makes the main agency (and the demo data), the others find it made and start as well.
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedFirstStart } from '../src/seed.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const log = pino({ level: 'silent' });
let t: TestApp;
let bare: TestApp;
beforeAll(async () => {
  [t, bare] = await Promise.all([
    createTestApp({ DEMO_DATA: 'true' }),
    createTestApp({ DEMO_DATA: 'false' }),
  ]);
});
afterAll(async () => {
  await t?.close();
  await bare?.close();
});

const count = async (app: TestApp, sql: string) => (await app.pool.query(sql)).rows[0].n as number;

describe('the first start, run by several processes at once', () => {
  it('with the demo data: made once, every process starts and shows the demo sign-ins', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => seedFirstStart({ db: t.db, config: t.config, log })),
    );
    for (const logins of results) expect(logins.map((l) => l.email)).toContain('admin@demo.test');
    expect(await count(t, 'select count(*)::int as n from agencies where is_main')).toBe(1);
    expect(await count(t, `select count(*)::int as n from agencies where subdomain = 'acme'`)).toBe(1);
    expect(await count(t, `select count(*)::int as n from users where email = 'admin@demo.test'`)).toBe(1);
  });

  it('without the demo data: one main agency, every process starts', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => seedFirstStart({ db: bare.db, config: bare.config, log })),
    );
    expect(results).toEqual([[], [], []]);
    expect(await count(bare, 'select count(*)::int as n from agencies where is_main')).toBe(1);
  });
});
