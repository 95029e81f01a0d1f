// The restart test (issue 20, ADR 068): a worker process (`npm run worker`, on this test's database, texting
// through this API server's sandbox over HTTP) is killed with SIGKILL while one journey is in a Wait and
// another's Webhook request is in flight, then started again. Afterwards each step's effect happened
// exactly once: the text after the Wait, counted in the sandbox carrier's own record; the webhook's
// effect, counted at a local test server that honours `Idempotency-Key` (the request itself is sent again:
// at-least-once on the wire); and each journey's history records every block done once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, it } from 'vitest';
import { workerProcesses } from '../../../test/child-server.ts';
import {
  type AutomationsTest,
  addAutomation,
  addContacts,
  automationsApp,
  block,
  chain,
  enter,
  expect,
  installWithNumber,
  runOf,
  stepsOf,
} from './test-support.ts';

const workers = workerProcesses('stn-automations-restart-');
let h: AutomationsTest;

/** The receiver: applies a delivery's effect once per Idempotency-Key; the first delivery is held open. */
const deliveries: string[] = [];
const effects = new Map<string, number>();
let hold = true;
const receiver = http.createServer((req, res) => {
  const key = String(req.headers['idempotency-key'] ?? '');
  req.resume();
  req.on('end', () => {
    deliveries.push(key);
    if (!effects.has(key)) effects.set(key, 1);
    if (hold) return; // no answer: the worker is killed while it waits for one
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
let rxOrigin = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  rxOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  // The API server works no steps: the worker process does.
  h = await automationsApp({
    WORKERS: 'off',
    SECRETS_KEY: workers.secretsKey,
    AUTOMATION_WEBHOOK_ALLOW_ORIGINS: rxOrigin,
  });
  await workers.listen(h.t);
});
afterAll(async () => {
  workers.close();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
  await h?.close();
});

const worker = () => workers.start({ AUTOMATION_WEBHOOK_ALLOW_ORIGINS: rxOrigin });

it('does each step once though the worker is killed in a Wait and in a Webhook', async () => {
  const install = await installWithNumber(h);
  const [c1, c2] = (await addContacts(h, { count: 2, installId: install.id, prefix: '+1415704' })) as [
    number,
    number,
  ];
  const [p1] = await h.q<{ phone: string }>('select phone from contacts where id = $1', [c1]);
  const waits = await addAutomation(h, {
    name: 'Wait then text',
    blocks: chain(
      block('w', 'Wait', { amount: 8, unit: 'seconds' }),
      block('m', 'SendMessage', { body: 'Welcome back, once' }),
    ),
  });
  const posts = await addAutomation(h, {
    name: 'Webhook',
    blocks: chain(block('hook', 'Webhook', { url: `${rxOrigin}/lead` }), block('w', 'Wait')),
  });
  const [r1] = (await enter(h, waits, [c1])) as [number];
  const [r2] = (await enter(h, posts, [c2])) as [number];
  const texts = () =>
    h.sandbox.sentMessages({ to: p1?.phone ?? '' }).filter((m) => m.body === 'Welcome back, once');

  // The first worker: killed (the whole process group, no shutdown) once the Wait waits and the webhook's
  // request is in flight.
  const first = worker();
  await expect
    .poll(
      async () => (await runOf(h, r1)).current_block === 'w' && (await runOf(h, r1)).status === 'waiting',
      {
        timeout: 60_000,
        message: first.out(),
      },
    )
    .toBe(true);
  await expect.poll(() => deliveries.length, { timeout: 30_000, message: first.out() }).toBe(1);
  if (!first.child.pid) throw new Error('no worker');
  const killed = new Promise((resolve) => first.child.on('exit', resolve));
  process.kill(-first.child.pid, 'SIGKILL');
  await killed;
  const [hookStep] = await stepsOf(h, r2);
  expect(hookStep).toMatchObject({ status: 'running', attempts: 1 });
  expect((await runOf(h, r1)).status).toBe('waiting');
  expect(texts()).toHaveLength(0);
  hold = false;

  // The second one takes over: the Wait ends on its time, the webhook step is worked again.
  const second = worker();
  await expect
    .poll(async () => [(await runOf(h, r1)).status, (await runOf(h, r2)).status], {
      timeout: 60_000,
      message: second.out(),
    })
    .toEqual(['completed', 'completed']);
  if (second.child.pid) process.kill(-second.child.pid, 'SIGTERM');

  expect(texts()).toHaveLength(1);
  const key = `automation-step-${r2}-1`;
  expect(deliveries).toEqual([key, key]);
  expect([...effects]).toEqual([[key, 1]]);
  const s1 = await stepsOf(h, r1);
  expect(s1.map((s) => [s.block_id, s.status, s.output])).toEqual([
    ['w', 'done', 'next'],
    ['m', 'done', 'next'],
  ]);
  const s2 = await stepsOf(h, r2);
  expect(s2.map((s) => [s.block_id, s.status, s.output, s.attempts])).toEqual([
    ['hook', 'done', 'next', 2],
    ['w', 'done', 'next', 1],
  ]);
  expect(s2[0]?.detail).toMatchObject({ status: 200 });
}, 180_000);
