// One statement at a time on a connection (issue 27): statements started together on one connection wait in
// our pool's wrapper, not in pg's own queue, which pg 8 warns of and pg 9 refuses. The child process runs
// with --throw-deprecation, so pg's warning would fail it; its answers must come back whole and in order.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('sends statements started together on one connection one after another, each answered with its own values', () => {
  const r = spawnSync(
    process.execPath,
    [
      '--throw-deprecation',
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'statements-together.child.ts'),
    ],
    {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: { ...process.env, DATABASE_URL: t.config.databaseUrl },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(r.stderr).not.toContain('DeprecationWarning');
  expect(r.status, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout.trim())).toEqual({
    inTx: [0, 1, 2, 3, 4],
    byCallback: [5, 6, 7],
    refused: 'Client was passed a null or undefined query',
  });
});
