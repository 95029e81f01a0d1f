import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInstall, updateInstall } from '../../apps/server/src/modules/installs/service.ts';
import { restoreSandboxNumbers } from '../../apps/server/src/modules/telephony/sandbox-restore.ts';
import { addDemoNumber } from '../../apps/server/src/modules/telephony/service.ts';
import { platformSystemContext, tenantContext } from '../../apps/server/src/platform/tenancy/context.ts';
import { startCpuSplit } from '../lib/cpu-split.ts';
import { inProcessPlatform } from '../lib/in-process.ts';
import { sampleLockWaits } from '../lib/lock-waits.ts';
import { postgresCpuMs } from '../lib/postgres-cpu.ts';
import { countStatements, resetStatementTexts, statementsSent, topStatements } from '../lib/statements.ts';
import { threads, threadsLine } from '../lib/threads.ts';

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const RPS = Number(process.env.BENCH_RPS ?? 20);
const INSTALLS = Math.max(1, Math.min(9, Number(process.env.BENCH_INSTALLS ?? 4)));
/** The most staff phones an install rings (its phoneAgents, contracts/installs.ts). */
const PHONES_PER_INSTALL = 10;
const pad2 = (n: number) => String(n).padStart(2, '0');
// Sandbox staff phones +15005550101.., the demo's two first; install numbers: the demo's, then +150055502NN.
const staffOfInstall = (k: number) =>
  Array.from({ length: PHONES_PER_INSTALL }, (_, j) => `+150055501${pad2(k * PHONES_PER_INSTALL + j + 1)}`);
const STAFF = Array.from({ length: INSTALLS }, (_, k) => staffOfInstall(k)).flat();

countStatements();
const platform = await inProcessPlatform('stn-bench-callback-', {
  WIDGET_RATE_PER_ADDRESS: '10000000',
  WIDGET_RATE_PER_INSTALL: '10000000',
  WIDGET_CALLBACKS_PER_INSTALL_MINUTE: '10000',
  WIDGET_CALLBACKS_PER_PHONE_DAY: '1000',
});
const { app, database } = platform;
await app.ready();
const sandbox = app.deps.carrier.sandbox;
if (!sandbox) throw new Error('the sandbox carrier is off');

// Bright Dental: no monthly cap for the run, and room for its installs (as its agency would allow).
const { rows: biz } = await database.pool.query(
  `update businesses set calls = 0, number_of_installs = greatest(number_of_installs, $1)
    where name = 'Bright Dental' returning id, agency_id`,
  [INSTALLS],
);
const businessId = biz[0]?.id as number;
const agencyId = biz[0]?.agency_id as number;
if (!businessId) throw new Error('no demo business');
const { rows: demo } = await database.pool.query(
  'select id from installs where business_id = $1 order by id limit 1',
  [businessId],
);
const demoInstallId = demo[0]?.id as number;
if (!demoInstallId) throw new Error('no demo install');
// Its installs, through the installs service as the demo data makes them: open all day, round robin over
// ten staff phones each; the new ones get a sandbox number each, as the demo install has.
const ctx = tenantContext(
  app.deps,
  { level: 'business', agencyId, businessId },
  { kind: 'system', source: 'seed', name: 'callback bench' },
);
const days = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const hours = Object.fromEntries(days.map((d) => [d, { open: true, from: '12:00AM', to: '11:59PM' }]));
const settingsOf = (k: number) => ({
  timezone: 'UTC',
  hours,
  calling_type: 'round_robin' as const,
  phoneAgents: staffOfInstall(k).map((phone, j) => ({
    user_id: null,
    name: `Staff ${k * PHONES_PER_INSTALL + j + 1}`,
    phone,
  })),
});
const keys = [(await updateInstall(ctx, { id: demoInstallId, settings: settingsOf(0) })).key];
for (let k = 1; k < INSTALLS; k++) {
  const install = await createInstall(ctx, {
    name: `Bright Dental site ${k + 1}`,
    website: `https://site${k + 1}.brightdental.example`,
    settings: settingsOf(k),
  });
  await addDemoNumber(ctx, {
    agencyId,
    businessId,
    installId: install.id,
    phoneNumber: `+150055502${pad2(k)}`,
  });
  keys.push(install.key);
}
await restoreSandboxNumbers(platformSystemContext(app.deps, 'job', 'sandbox numbers'));
for (const s of STAFF) sandbox.phones.configure(s, { autoAnswer: 'human', autoPress: '1', answerAfterMs: 0 });

// What reaches the carrier, and what the carrier sends, with the time it happens.
const now = () => performance.now();
const requested = new Map<number, number>();
const firstStaffCall = new Map<number, number>();
const gatherSent = new Map<number, number>();
/** When our server answered the press with the dial of the visitor (legs ask for no `initiated`, ADR 105). */
const dialAnswered = new Map<number, number>();
const bridged = new Map<number, number>();
const visitorOf = new Map<number, string>();
/** The staff phone that took each call (the parent of the visitor's <Dial> leg). */
const staffOf = new Map<number, string>();
/** Callbacks answered with no staff phone rung yet: they waited for a free phone. */
const waited = new Set<number>();
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
    if (params.CallStatus === 'in-progress' && !bridged.has(id)) {
      bridged.set(id, t);
      // The staff phone that rang (and took the call) hangs up a moment later: the call ends and the
      // phone comes free for the next callback.
      const staff = sandbox.calls.get(params.ParentCallSid ?? '')?.phone;
      if (staff) {
        staffOf.set(id, staff);
        setTimeout(() => {
          try {
            sandbox.phones.hangUp(staff);
          } catch {
            // already gone
          }
        }, 200).unref();
      }
    }
  }
  const delivered = deliver(method, url, params, token);
  if (url.includes('/webhooks/twilio/gather?'))
    void delivered.then(
      (answer) => {
        if (
          String((answer as { responseBody?: unknown })?.responseBody).includes('<Dial') &&
          !dialAnswered.has(id)
        )
          dialAnswered.set(id, now());
      },
      () => undefined,
    );
  return delivered;
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
    headers: { 'x-install-key': keys[i % keys.length] as string },
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
  // The request rings the first staff phone before it answers, unless every phone was busy.
  if (!firstStaffCall.has(id)) waited.add(id);
}

// Warm-up: a few callbacks first, not counted (the first requests compile the code paths).
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
for (let i = 0; i < WARMUP; i++) {
  await one(9000 + i);
  await new Promise((resolve) => setTimeout(resolve, 1000 / RPS));
}
await new Promise((resolve) => setTimeout(resolve, 3000));
// The planner's statistics as autovacuum keeps them on a running install (the database was made a moment ago).
await database.pool.query('analyze');
for (const m of [requested, firstStaffCall, gatherSent, dialAnswered, bridged, staffOf]) m.clear();
waited.clear();
failures = 0;
failuresBy.clear();

console.log(
  `callback bench: ${CALLS} callbacks at ${RPS}/s (after ${WARMUP} not counted), sandbox carrier on real time`,
);
const started = now();
const stopLockWaits = sampleLockWaits(database.pool);
// Reading PostgreSQL's CPU walks /proc: done before the server's own reading starts.
const pg0 = postgresCpuMs(platform.dataDir);
const cpu0 = process.cpuUsage();
const sql0 = statementsSent();
resetStatementTexts();
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
const threads0 = threads();
const stopSplit = await startCpuSplit();
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
  'press (gather webhook) -> visitor dialled',
  ids.map((id) => [gatherSent.get(id), dialAnswered.get(id)]),
  100,
);
stats(
  'request -> both legs bridged',
  ids.map((id) => [requested.get(id), bridged.get(id)]),
  1000,
);
console.log(
  `  callbacks that waited for a free staff phone: ${waited.size} of ${requested.size} (${STAFF.length} staff phones: ${INSTALLS} installs of ${PHONES_PER_INSTALL}, round robin; ${new Set(staffOf.values()).size} took calls)`,
);
if (failures)
  console.log(`  refused requests: ${failures} ${JSON.stringify(Object.fromEntries(failuresBy))}`);
const cpu = process.cpuUsage(cpu0);
const pgMs = postgresCpuMs(platform.dataDir) - pg0;
const statements = statementsSent() - sql0;
const split = await stopSplit();
const threads1 = threads();
const lockWaits = stopLockWaits();
loopDelay.disable();
const topSql = topStatements(Number(process.env.BENCH_SQL_TOP ?? 25), Math.max(1, requested.size));
const perCall = (ms: number) => (ms / Math.max(1, requested.size)).toFixed(2);
const processMs = (cpu.user + cpu.system) / 1000;
// The profile's samples split the process's CPU: the unattributed part (GC, node internals) in proportion.
const attributed = split.server + split.sandbox;
const share = (part: number) => (attributed > 0 ? (processMs * part) / attributed : 0);
console.log(
  attributed > 0
    ? `  CPU a callback: this process ${perCall(processMs)} ms = our server ${perCall(share(split.server))} ms (goal <= 5 ms: ${share(split.server) / Math.max(1, requested.size) <= 5 ? 'met' : 'NOT met'}) + the sandbox carrier ${perCall(share(split.sandbox))} ms (profile samples: server ${split.server.toFixed(0)} ms, sandbox ${split.sandbox.toFixed(0)} ms, unattributed ${split.other.toFixed(0)} ms); PostgreSQL ${perCall(pgMs)} ms; ${(statements / Math.max(1, requested.size)).toFixed(1)} statements a callback`
    : `  CPU a callback: this process ${perCall(processMs)} ms, not split between our server and the sandbox (BENCH_NO_SPLIT); PostgreSQL ${perCall(pgMs)} ms; ${(statements / Math.max(1, requested.size)).toFixed(1)} statements a callback`,
);
console.log(
  `  this process's CPU a callback: user ${perCall(cpu.user / 1000)} ms, kernel ${perCall(cpu.system / 1000)} ms`,
);
console.log(`  a callback: ${threadsLine(threads0, threads1, requested.size)}`);
console.log(
  `  the event loop's delay: p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms`,
);
if (process.env.BENCH_SQL === '1') {
  const { rows: legs } = await database.pool.query(
    `select role, status, count(*)::int as n from call_legs where call_id = any($1::int[]) group by 1, 2 order by 3 desc`,
    [ids],
  );
  const { rows: jobs } = await database.pool.query(
    `select name, count(*)::int as n from pgboss.job where created_on > now() - interval '10 minutes' group by 1 order by 2 desc`,
  );
  console.log(`  jobs (name count, warm-up included): ${jobs.map((j) => `${j.name} ${j.n}`).join('; ')}`);
  console.log(`  legs (role status count): ${legs.map((l) => `${l.role} ${l.status} ${l.n}`).join('; ')}`);
}
if (topSql.length) console.log(`  most sent (a callback):\n${topSql.join('\n')}`);
for (const line of lockWaits) console.log(line);
console.log(
  `  wall time ${((now() - started) / 1000).toFixed(1)} s; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${os.cpus().length} cores (figures mean little on a busy machine)`,
);

// Let the calls still playing end before the database closes.
for (const phone of new Set([...STAFF, ...ids.map((id) => visitorOf.get(id))])) {
  if (!phone) continue;
  try {
    sandbox.phones.hangUp(phone);
  } catch {
    // already idle
  }
}
await new Promise((r) => setTimeout(r, 3000));
await platform.close();
process.exit(0);
