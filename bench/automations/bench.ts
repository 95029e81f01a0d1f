// Automations (issue 20, ADR 068): BENCH_CONTACTS contacts (10,000 by default) of the demo business enter
// one automation at once (the engine's enterContacts, as a trigger calls it), through the whole engine as
// `npm start` runs it (embedded PostgreSQL, the runner in process). The journey is light: AddTag → Wait 1 s
// → Condition (tag) → AddTag. Prints engine steps a second from the entry to the last step finished (goal
// >= 1,000/s on two cores), and, for BENCH_SAMPLES single entries made one at a time while the engine is
// idle, the time from the entry (the trigger's event) to its first action's step finished (p50, p99; goal
// p99 < 500 ms). Also the CPU per step of the server and of PostgreSQL, and the load average. No asserts.
import os from 'node:os';
import { enterContacts } from '../../apps/server/src/modules/automations/engine.ts';
import { inTransaction, tenantContext } from '../../apps/server/src/platform/tenancy/context.ts';
import { demoBusiness, inProcessPlatform, loadAverageLine } from '../lib/in-process.ts';
import { postgresCpuMs } from '../lib/postgres-cpu.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 10_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 50);

const platform = await inProcessPlatform('stn-bench-automations-');
const { app, pool, dataDir } = platform;
await app.ready();
const demo = await demoBusiness(pool);
const tag = async (name: string) =>
  (
    await pool.query('insert into tags (business_id, name) values ($1, $2) returning id', [
      demo.business_id,
      name,
    ])
  ).rows[0].id as number;
const started = await tag('Bench started');
const finished = await tag('Bench finished');
const automation = async (name: string, blocks: unknown[]) =>
  (
    await pool.query(
      `insert into automations (agency_id, business_id, name, start_trigger, trigger, active, blocks, options, share_token)
       values ($1, $2, $3, 'direct-call', $4, true, $5, '{"reentry": "always"}', md5(random()::text)) returning id`,
      [
        demo.agency_id,
        demo.business_id,
        name,
        JSON.stringify({ kind: 'direct-call', config: {}, start: 'a', position: { x: 0, y: 0 } }),
        JSON.stringify(blocks),
      ],
    )
  ).rows[0].id as number;
const at = { x: 0, y: 0 };
// BENCH_JOURNEY=flow: the flow blocks only (Wait → Wait → Condition → Wait), the engine's own cost.
const flow = process.env.BENCH_JOURNEY === 'flow';
const journey = await automation('Bench journey', [
  flow
    ? { id: 'a', type: 'Wait', config: { amount: 1, unit: 'seconds' }, outputs: { next: 'w' }, position: at }
    : { id: 'a', type: 'AddTag', config: { add: [started] }, outputs: { next: 'w' }, position: at },
  { id: 'w', type: 'Wait', config: { amount: 1, unit: 'seconds' }, outputs: { next: 'c' }, position: at },
  {
    id: 'c',
    type: 'Condition',
    config: { kind: 'tag', tag_id: started },
    outputs: { yes: 'd', no: 'd' },
    position: at,
  },
  flow
    ? { id: 'd', type: 'Wait', config: { amount: 1, unit: 'seconds' }, outputs: {}, position: at }
    : { id: 'd', type: 'AddTag', config: { add: [finished] }, outputs: {}, position: at },
]);
const single = await automation('Bench first action', [
  { id: 'a', type: 'AddTag', config: { add: [started] }, outputs: {}, position: at },
]);
const ids = (
  await pool.query(
    `insert into contacts (agency_id, business_id, install_id, phone, first_name, last_name)
     select $1, $2, $3, '+1415' || (3000000 + i)::text, 'Ann' || i, 'Bench'
       from generate_series(1, $4::int) as i
     on conflict do nothing returning id`,
    [demo.agency_id, demo.business_id, demo.install_id, CONTACTS],
  )
).rows.map((r) => r.id as number);
// Planner statistics as a database in use has them (autovacuum's analyze comes later after a bulk insert).
await pool.query('analyze contacts, contact_tags, tags');
const ctx = tenantContext(
  app.deps,
  { level: 'business', agencyId: demo.agency_id, businessId: demo.business_id },
  { kind: 'system', source: 'cli', name: 'bench' },
);
const enter = (automationId: number, contactIds: number[], key: string) =>
  inTransaction(ctx, (tx) =>
    enterContacts(tx, {
      automationId,
      trigger: 'direct-call',
      entries: contactIds.map((contactId) => ({ contactId, entryKey: key })),
    }),
  );
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? Number.NaN;
};

// 1. Trigger → first action, one entry at a time while idle.
const latencies: number[] = [];
for (let i = 0; i < SAMPLES; i++) {
  const t = Date.now();
  const [run] = await enter(single, [ids[i] as number], `sample-${i}`);
  for (;;) {
    const { rows: s } = await pool.query(
      "select finished_at from automation_steps where run_id = $1 and seq = 1 and status = 'done'",
      [run],
    );
    if (s[0]) {
      latencies.push((s[0].finished_at as Date).getTime() - t);
      break;
    }
    await new Promise((r) => setTimeout(r, 2));
  }
}

// 2. Everyone at once.
const cpu0 = process.cpuUsage();
const pg0 = postgresCpuMs(dataDir);
const load0 = os.loadavg();
const t0 = Date.now();
const runs = await enter(journey, ids, 'bench');
const entered = Date.now();
for (;;) {
  const { rows: s } = await pool.query(
    "select count(*)::int as n from automation_runs where automation_id = $1 and status in ('active', 'waiting')",
    [journey],
  );
  if (process.env.BENCH_DEBUG) console.log(Date.now() - t0, s[0]?.n);
  if (s[0]?.n === 0) break;
  await new Promise((r) => setTimeout(r, 250));
}
const { rows: st } = await pool.query(
  `select count(*)::int as n, max(finished_at) as last,
          count(*) filter (where status = 'done')::int as done
     from automation_steps where automation_id = $1`,
  [journey],
);
const cpu = process.cpuUsage(cpu0);
const pgMs = postgresCpuMs(dataDir) - pg0;
const steps = st[0]?.n as number;
const seconds = ((st[0]?.last as Date).getTime() - t0) / 1000;
const { rows: done } = await pool.query(
  "select count(*)::int as n from automation_runs where automation_id = $1 and status = 'completed'",
  [journey],
);
console.log(
  `automations: ${runs.length} contacts entered at once (${entered - t0} ms, one statement); ` +
    `AddTag → Wait 1 s → Condition → AddTag; ${done[0]?.n} journeys completed, ${st[0]?.done}/${steps} steps done`,
);
console.log(`  steps/s             ${Math.round(steps / seconds)} (goal >= 1,000; the 1 s wait included)`);
console.log(`  all done in         ${seconds.toFixed(1)} s`);
console.log(
  `  trigger → first action (${latencies.length} single entries while idle): ` +
    `p50 ${pct(latencies, 50)} ms, p99 ${pct(latencies, 99)} ms (goal p99 < 500 ms)`,
);
console.log(
  `  CPU per step        server ${((cpu.user + cpu.system) / 1000 / steps).toFixed(3)} ms, ` +
    `PostgreSQL ${(pgMs / steps).toFixed(3)} ms`,
);
console.log(loadAverageLine(load0));
await platform.close();
