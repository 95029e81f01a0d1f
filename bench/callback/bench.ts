// The instant callback's own time, over 1,000 sandboxed callbacks at 20 requests a second (issue 9):
//   1. the visitor's request -> the first staff createCall reaching the carrier (goal p99 < 100 ms);
//   2. a staff press of the key (the gather webhook sent by the carrier) -> the visitor's leg created by
//      the <Dial> (its "initiated" callback) (goal p99 < 100 ms);
//   3. the visitor's request -> both legs bridged (the visitor's leg answered), with sandbox phones that
//      answer and press at once (goal p99 < 1 s; the sandbox rings each phone for 400 ms first).
// An in-process app on a fresh embedded PostgreSQL with the demo data, the sandbox carrier on real time.
// Prints figures; asserts nothing. BENCH_CALLS and BENCH_RPS change the load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/platform/config.ts';
import { openDatabase } from '../../apps/server/src/platform/db/open.ts';
import { seedFirstStart } from '../../apps/server/src/seed.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const RPS = Number(process.env.BENCH_RPS ?? 20);
const STAFF = ['+15005550101', '+15005550102'];

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-bench-callback-'));
const config = loadConfig({
  ...process.env,
  NODE_ENV: 'production',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  DEMO_DATA: 'true',
  LOG_LEVEL: 'fatal',
  PUBLIC_URL: 'http://localhost:3000',
  WIDGET_RATE_PER_ADDRESS: '10000000',
  WIDGET_RATE_PER_INSTALL: '10000000',
  CARRIER_SANDBOX: 'true',
});
const log = pino({ level: 'fatal' });
const database = await openDatabase(config, () => undefined);
await seedFirstStart({ db: database.db, config, log });
const app = await buildApp({ config, db: database.db, logger: log });
await app.ready();
const sandbox = app.deps.carrier.sandbox;
if (!sandbox) throw new Error('the sandbox carrier is off');

// Bright Dental's demo install: open all day, no monthly cap for the run.
const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const hours = Object.fromEntries(days.map((d) => [d, { open: true, from: '12:00AM', to: '11:59PM' }]));
const { rows } = await database.pool.query(
  `update installs set settings = settings || $1::jsonb
    where business_id = (select id from businesses where name = 'Bright Dental') returning key`,
  [JSON.stringify({ timezone: 'UTC', hours })],
);
const key = rows[0]?.key as string;
if (!key) throw new Error('no demo install');
await database.pool.query(`update businesses set calls = 0 where name = 'Bright Dental'`);
for (const s of STAFF) sandbox.phones.configure(s, { autoAnswer: 'human', autoPress: '1', answerAfterMs: 0 });

// What reaches the carrier, and what the carrier sends, with the time it happens.
const now = () => performance.now();
const requested = new Map<number, number>();
const firstStaffCall = new Map<number, number>();
const gatherSent = new Map<number, number>();
const visitorLeg = new Map<number, number>();
const bridged = new Map<number, number>();
const visitorOf = new Map<number, string>();
const callIdOf = (url: string) => Number(/[?&]call=(\d+)/.exec(url)?.[1] ?? Number.NaN);

const http = sandbox.httpClient as unknown as {
  request: (opts: Record<string, unknown>) => Promise<unknown>;
};
const request = http.request.bind(http);
http.request = (opts) => {
  const t = now();
  const uri = String(opts.uri ?? '');
  const data = (opts.data ?? {}) as Record<string, string>;
  if (opts.method === 'post' || opts.method === 'POST') {
    if (uri.endsWith('/Calls.json') && data.Url?.includes('leg=staff')) {
      const id = callIdOf(data.Url);
      if (!firstStaffCall.has(id)) firstStaffCall.set(id, t);
    }
  }
  return request(opts);
};
const webhooks = sandbox.webhooks as unknown as {
  request: (m: string, url: string, params: Record<string, string>, token: string) => Promise<unknown>;
};
const deliver = webhooks.request.bind(webhooks);
webhooks.request = (method, url, params, token) => {
  const t = now();
  const id = callIdOf(url);
  if (url.includes('/webhooks/twilio/gather?') && !gatherSent.has(id)) gatherSent.set(id, t);
  if (url.includes('leg=visitor')) {
    if (params.CallStatus === 'initiated' && !visitorLeg.has(id)) visitorLeg.set(id, t);
    if (params.CallStatus === 'in-progress' && !bridged.has(id)) {
      bridged.set(id, t);
      // The visitor hangs up a moment later, so that the run does not pile up live calls.
      const visitor = visitorOf.get(id);
      if (visitor)
        setTimeout(() => {
          try {
            sandbox.phones.hangUp(visitor);
          } catch {
            // already gone
          }
        }, 200).unref();
    }
  }
  return deliver(method, url, params, token);
};

let failures = 0;
const failuresBy = new Map<string, number>();
async function one(i: number): Promise<void> {
  const visitor = `+1415555${String(i % 10000).padStart(4, '0')}`;
  sandbox?.phones.configure(visitor, { autoAnswer: 'human', answerAfterMs: 0 });
  const t = now();
  const res = await app.inject({
    method: 'POST',
    url: '/api/widget/v1/callback',
    headers: { 'x-install-key': key },
    payload: { phone: visitor, name: `Visitor ${i}` },
  });
  if (res.statusCode !== 200 || res.json().data.status !== 'calling') {
    failures++;
    const k = `${res.statusCode} ${res.json().message ?? res.json().data?.status}`;
    failuresBy.set(k, (failuresBy.get(k) ?? 0) + 1);
    return;
  }
  const id = res.json().data.call_id as number;
  requested.set(id, t);
  visitorOf.set(id, visitor);
}

// Warm-up: a few callbacks first, not counted (the first requests compile the code paths).
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
for (let i = 0; i < WARMUP; i++) {
  await one(9000 + i);
  await new Promise((resolve) => setTimeout(resolve, 1000 / RPS));
}
await new Promise((resolve) => setTimeout(resolve, 3000));
for (const m of [requested, firstStaffCall, gatherSent, visitorLeg, bridged]) m.clear();
failures = 0;
failuresBy.clear();

console.log(
  `callback bench: ${CALLS} callbacks at ${RPS}/s (after ${WARMUP} not counted), sandbox carrier on real time`,
);
const started = now();
const cpu0 = process.cpuUsage();
const inflight: Promise<void>[] = [];
for (let i = 0; i < CALLS; i++) {
  const due = started + (i * 1000) / RPS;
  const wait = due - now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  inflight.push(one(i));
}
await Promise.all(inflight);
// Let the last calls play out.
const until = now() + 10_000;
while (now() < until && bridged.size < requested.size) await new Promise((r) => setTimeout(r, 100));

function stats(name: string, pairs: [number | undefined, number | undefined][], goalMs: number) {
  const d = pairs
    .filter((p): p is [number, number] => p[0] !== undefined && p[1] !== undefined)
    .map(([a, b]) => b - a)
    .sort((x, y) => x - y);
  const pick = (q: number) => d[Math.min(d.length - 1, Math.floor(q * d.length))] ?? Number.NaN;
  const p99 = pick(0.99);
  console.log(
    `  ${name.padEnd(44)} n=${String(d.length).padStart(4)}  median ${pick(0.5).toFixed(1).padStart(7)} ms  p99 ${p99
      .toFixed(1)
      .padStart(7)} ms  (goal p99 < ${goalMs} ms: ${p99 < goalMs ? 'met' : 'NOT met'})`,
  );
}
const ids = [...requested.keys()];
stats(
  'request -> first staff createCall',
  ids.map((id) => [requested.get(id), firstStaffCall.get(id)]),
  100,
);
stats(
  'press (gather webhook) -> visitor leg created',
  ids.map((id) => [gatherSent.get(id), visitorLeg.get(id)]),
  100,
);
stats(
  'request -> both legs bridged',
  ids.map((id) => [requested.get(id), bridged.get(id)]),
  1000,
);
if (failures)
  console.log(`  refused requests: ${failures} ${JSON.stringify(Object.fromEntries(failuresBy))}`);
const cpu = process.cpuUsage(cpu0);
console.log(
  `  this process's CPU: ${((cpu.user + cpu.system) / 1000 / Math.max(1, requested.size)).toFixed(1)} ms a callback`,
);
console.log(
  `  wall time ${((now() - started) / 1000).toFixed(1)} s; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores (figures mean little on a busy machine)`,
);

// Let the calls still playing end before the database closes.
for (const id of ids) {
  const visitor = visitorOf.get(id);
  if (!visitor) continue;
  try {
    sandbox.phones.hangUp(visitor);
  } catch {
    // already idle
  }
}
await new Promise((r) => setTimeout(r, 3000));
await app.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
