// Analytics (issue 24, ADR 081): BENCH_ANALYTICS_SCALE × (10 million messages, 1 million calls, 200,000
// contacts) over 1,000 businesses (10 agencies of 100, ~2 installs each in varied time zones), spread over
// the last 365 days, loaded with COPY FROM STDIN (pg-copy-streams) into a database of its own (the embedded
// PostgreSQL in a temporary folder, or a fresh database on BENCH_DATABASE_URL's server), after the real
// migrations. Then: every day built by the first sweep of the database (rebuildAll, timed), a sample rebuilt day by day;
// 200 business dashboards and 50 agency dashboards (agencies of 100 businesses) on random 30-day ranges, and
// a few 365-day ones, through the service functions (p50/p95/max); the same for one agency holding all 1,000
// businesses; and 50 times the time from a new text or call, published through the module's listeners, to
// its rollup row. Everything is removed at the end; BENCH_ANALYTICS_MAX_MINUTES (25) bounds the run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import pino from 'pino';
import { sweepAnalytics } from '../../apps/server/src/modules/analytics/jobs.ts';
import { registerAnalyticsListeners } from '../../apps/server/src/modules/analytics/listeners.ts';
import { type DayKey, rebuildDays } from '../../apps/server/src/modules/analytics/rollup.ts';
import { agencyAnalytics, businessAnalytics } from '../../apps/server/src/modules/analytics/service.ts';
import { messageSent } from '../../apps/server/src/modules/chats/events.ts';
import { callCompleted } from '../../apps/server/src/modules/telephony/events.ts';
import { createDb } from '../../apps/server/src/platform/db/client.ts';
import { startEmbeddedPostgres } from '../../apps/server/src/platform/db/embedded.ts';
import { runMigrations } from '../../apps/server/src/platform/db/migrate.ts';
import type { Deps } from '../../apps/server/src/platform/deps.ts';
import { createEventBus, publish } from '../../apps/server/src/platform/events/events.ts';
import { platformSystemContext, tenantContext } from '../../apps/server/src/platform/tenancy/context.ts';
import { loadAverageLine } from '../lib/in-process.ts';
import { postgresCpuMs } from '../lib/postgres-cpu.ts';

const SCALE = Number(process.env.BENCH_ANALYTICS_SCALE ?? 1);
const MESSAGES = Math.round(10_000_000 * SCALE);
const CALLS = Math.round(1_000_000 * SCALE);
const AGENCIES = 10;
const PER_AGENCY = 100;
const BUSINESSES = AGENCIES * PER_AGENCY;
const CONTACTS_PER_BUSINESS = Math.max(5, Math.round(200 * SCALE));
const BUSINESS_RUNS = Number(process.env.BENCH_ANALYTICS_BUSINESS_RUNS ?? 200);
const AGENCY_RUNS = Number(process.env.BENCH_ANALYTICS_AGENCY_RUNS ?? 50);
const YEAR_RUNS = Number(process.env.BENCH_ANALYTICS_YEAR_RUNS ?? 10);
const EVENT_RUNS = Number(process.env.BENCH_ANALYTICS_EVENT_RUNS ?? 50);
const MAX_MINUTES = Number(process.env.BENCH_ANALYTICS_MAX_MINUTES ?? 25);
const ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Europe/London',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Australia/Adelaide',
  'Pacific/Auckland',
  'UTC',
  '', // unset: the contract's default
];
const DAY_MS = 86_400_000;

const started = Date.now();
const load0 = os.loadavg();
const summary: string[] = [];
const say = (line: string) => {
  console.log(line);
  summary.push(line);
};
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// A deterministic generator, so that two runs seed the same rows.
let seed = 0x2024_0024;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};
const pick = (n: number) => Math.floor(rand() * n);

// --- The database: the embedded PostgreSQL in a temporary folder, or a fresh database on a given server.
let cleanup: () => Promise<void> = async () => undefined;
let url: string;
/** CPU (ms) of the embedded PostgreSQL so far: on a busy machine a steadier figure than the wall time. */
let pgCpu = () => Number.NaN;
if (process.env.BENCH_DATABASE_URL) {
  const admin = process.env.BENCH_DATABASE_URL;
  const name = `stn_bench_analytics_${process.pid}`;
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await run(`create database ${name}`);
  const u = new URL(admin);
  u.pathname = `/${name}`;
  url = u.toString();
  // BENCH_ANALYTICS_KEEP=1 keeps the database (to study its queries by hand).
  cleanup = () =>
    process.env.BENCH_ANALYTICS_KEEP
      ? Promise.resolve()
      : run(`drop database if exists ${name} with (force)`);
} else {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-bench-analytics-'));
  const embedded = await startEmbeddedPostgres({ dataDir, databases: ['app'], persistent: false });
  url = embedded.url('app');
  pgCpu = () => postgresCpuMs(dataDir);
  cleanup = async () => {
    await embedded.stop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
}
const { db, pool } = createDb(url, 4);
let cleaned = false;
const finish = async (code: number) => {
  if (cleaned) return;
  cleaned = true;
  // A statement still running (the time limit) must not keep the pool from ending: wait 5 s at most.
  await Promise.race([pool.end().catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
  await cleanup().catch((err: unknown) => console.error('cleanup failed', err));
  process.exit(code);
};
const deadline = started + MAX_MINUTES * 60_000;
const timer = setTimeout(() => {
  console.error(`analytics bench: stopped after ${MAX_MINUTES} min (BENCH_ANALYTICS_MAX_MINUTES)`);
  console.log(['', '== analytics summary (incomplete: time limit)', ...summary].join('\n'));
  void finish(1);
}, deadline - Date.now());
timer.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void finish(130));

try {
  await main();
  clearTimeout(timer);
  console.log(['', '== analytics summary', ...summary].join('\n'));
  await finish(0);
} catch (err) {
  console.error(err);
  await finish(1);
}

async function main() {
  const t0 = Date.now();
  {
    const m = createDb(url, 1);
    await runMigrations(m.db);
    await m.pool.end();
  }
  say(
    `analytics: ${MESSAGES.toLocaleString('en')} messages, ${CALLS.toLocaleString('en')} calls, ` +
      `${(CONTACTS_PER_BUSINESS * BUSINESSES).toLocaleString('en')} contacts, ${BUSINESSES} businesses in ` +
      `${AGENCIES} agencies, 365 days (scale ${SCALE}; ${process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL' : 'embedded PostgreSQL'})`,
  );
  say(`  migrations            ${secs(Date.now() - t0)}`);

  const log = pino({ level: 'fatal' });
  const events = createEventBus(log);
  const deps = { db, log, events } as unknown as Deps;
  const platform = platformSystemContext(deps, 'cli', 'analytics bench');

  // --- Seed.
  const t1 = Date.now();
  const end = Date.now() - 3_600_000;
  const start = end - 365 * DAY_MS;
  const one = async <T extends pg.QueryResultRow>(q: string, params: unknown[] = []) =>
    (await pool.query<T>(q, params)).rows;
  const base = async (table: string) =>
    Number((await one<{ m: number }>(`select coalesce(max(id), 0)::int as m from ${table}`))[0]?.m ?? 0);
  const aBase = await base('agencies');
  await one(
    `insert into agencies (id, name) select $1::int + i, 'Bench agency ' || i from generate_series(1, $2::int) i`,
    [aBase, AGENCIES],
  );
  const bBase = await base('businesses');
  await one(
    `insert into businesses (id, agency_id, name, calls, messages, number_of_calls, number_of_messages)
     select $1::int + i, $2::int + 1 + (i - 1) / $3::int, 'Bench business ' || i, 500, 10000,
            (i * 7) % 600, (i * 131) % 12000
       from generate_series(1, $4::int) i`,
    [bBase, aBase, PER_AGENCY, BUSINESSES],
  );
  await one(
    `insert into installs (agency_id, business_id, key, name, settings)
     select b.agency_id, b.id, 'bench-' || b.id || '-' || j, 'Site ' || j,
            case when z.tz = '' then '{}'::jsonb else jsonb_build_object('timezone', z.tz) end
       from businesses b
       cross join lateral generate_series(1, 1 + b.id % 3) j
       cross join lateral (select ($1::text[])[1 + (b.id * 7 + j) % array_length($1::text[], 1)] as tz) z
      where b.id > $2 order by b.id, j`,
    [ZONES, bBase],
  );
  for (const t of ['agencies', 'businesses'])
    await one(`select setval(pg_get_serial_sequence('${t}', 'id'), (select max(id) from ${t}))`);
  const installRows = await one<{ id: number; business_id: number }>(
    'select id, business_id from installs where business_id > $1 order by business_id, id',
    [bBase],
  );
  const installsOf: number[][] = Array.from({ length: BUSINESSES }, () => []);
  for (const r of installRows) installsOf[r.business_id - bBase - 1]?.push(r.id);
  const agencyOf = (b: number) => aBase + 1 + Math.floor(b / PER_AGENCY);

  // Bulk load as a restore does: the raw tables' secondary indexes are dropped before the COPY and made again
  // after it, and the foreign keys are not checked row by row (session_replication_role; the rows are made
  // consistent here). The schema at the end is the migrations' own.
  const tables = ['contacts', 'messages', 'calls'];
  const indexes = await one<{ name: string; def: string }>(
    `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
       from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relname = any($1) and not i.indisprimary
        and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const i of indexes) await one(`drop index ${i.name}`);

  const copy = async (table: string, columns: string[], rows: Iterable<string>) => {
    const client = await pool.connect();
    try {
      await client.query('set session_replication_role = replica').catch(() => undefined);
      const stream = client.query(copyFrom(`copy ${table} (${columns.join(', ')}) from stdin`));
      await pipeline(Readable.from(rows), stream);
      await client.query('set session_replication_role = default').catch(() => undefined);
    } finally {
      client.release();
    }
  };
  /** Rows as text lines, handed over in chunks of 4,000. */
  function* chunks(n: number, line: (i: number) => string) {
    let buf = '';
    for (let i = 0; i < n; i++) {
      buf += line(i);
      if (i % 4000 === 3999) {
        yield buf;
        buf = '';
      }
    }
    if (buf) yield buf;
  }
  const iso = (ms: number) => new Date(ms).toISOString();
  const N = '\\N';

  const cBase = await base('contacts');
  const contactInstall = (b: number, j: number) => {
    const list = installsOf[b] ?? [];
    return j % 10 === 9 ? null : (list[j % list.length] ?? null);
  };
  let optedOut = 0;
  await copy(
    'contacts',
    ['id', 'agency_id', 'business_id', 'install_id', 'phone', 'first_name', 'opted_out_at'],
    chunks(BUSINESSES * CONTACTS_PER_BUSINESS, (i) => {
      const b = Math.floor(i / CONTACTS_PER_BUSINESS);
      const j = i % CONTACTS_PER_BUSINESS;
      const out = rand() < 0.02;
      if (out) optedOut++;
      return `${cBase + 1 + i}\t${agencyOf(b)}\t${bBase + 1 + b}\t${contactInstall(b, j) ?? N}\t+1555${String(i).padStart(7, '0')}\tC${j}\t${out ? iso(start + rand() * 365 * DAY_MS) : N}\n`;
    }),
  );
  const tc = Date.now();
  const mBase = await base('messages');
  let broadcastTexts = 0;
  await copy(
    'messages',
    [
      'id',
      'agency_id',
      'business_id',
      'contact_id',
      'install_id',
      'direction',
      'body',
      'status',
      'from_number',
      'to_number',
      'segments',
      'sent_at',
      'broadcast_id',
    ],
    chunks(MESSAGES, (i) => {
      const b = pick(BUSINESSES);
      const j = pick(CONTACTS_PER_BUSINESS);
      const install = rand() < 0.03 ? null : contactInstall(b, j);
      const inbound = rand() < 0.4;
      const r = rand();
      const status = inbound
        ? 'received'
        : r < 0.85
          ? 'delivered'
          : r < 0.93
            ? 'sent'
            : r < 0.97
              ? 'failed'
              : r < 0.99
                ? 'scheduled'
                : 'canceled';
      const s = rand();
      const segments = 1 + (s < 0.2 ? 1 : 0) + (s < 0.05 ? 1 : 0);
      const broadcast = !inbound && rand() < 0.1 ? 1 + pick(500) : null;
      if (broadcast) broadcastTexts++;
      const phone = `+1555${String(b * CONTACTS_PER_BUSINESS + j).padStart(7, '0')}`;
      const business = `+1800${String(b).padStart(7, '0')}`;
      return `${mBase + 1 + i}\t${agencyOf(b)}\t${bBase + 1 + b}\t${cBase + 1 + b * CONTACTS_PER_BUSINESS + j}\t${install ?? N}\t${inbound ? 'in' : 'out'}\tHello\t${status}\t${inbound ? phone : business}\t${inbound ? business : phone}\t${segments}\t${iso(start + rand() * 365 * DAY_MS)}\t${broadcast ?? N}\n`;
    }),
  );
  const tm = Date.now();
  const kBase = await base('calls');
  await copy(
    'calls',
    [
      'id',
      'agency_id',
      'business_id',
      'install_id',
      'kind',
      'outcome',
      'visitor_phone',
      'agent_user_id',
      'agent_name',
      'requested_at',
      'connected_at',
      'ended_at',
      'duration',
    ],
    chunks(CALLS, (i) => {
      const b = pick(BUSINESSES);
      const list = installsOf[b] ?? [];
      const install = list[pick(list.length)];
      const k = rand();
      const kind = k < 0.6 ? 'callback' : k < 0.9 ? 'inbound' : 'scheduled';
      const r = rand();
      let outcome: string;
      let connected = false;
      if (kind === 'callback') {
        connected = r < 0.7;
        outcome = connected ? 'completed' : r < 0.92 ? 'missed' : r < 0.97 ? 'no_answer' : 'failed';
      } else if (kind === 'inbound') {
        connected = r < 0.65;
        outcome = connected ? 'completed' : 'missed';
      } else {
        connected = r < 0.5;
        outcome = connected ? 'completed' : r < 0.7 ? 'scheduled' : r < 0.9 ? 'missed' : 'canceled';
      }
      const at = start + rand() * 365 * DAY_MS;
      const wait = Math.floor(rand() ** 2 * 150_000) + 2000;
      const duration = 20 + pick(600);
      const agent = connected ? 100_000 + b * 5 + pick(5) : null;
      return `${kBase + 1 + i}\t${agencyOf(b)}\t${bBase + 1 + b}\t${install}\t${kind}\t${outcome}\t+1555${String(pick(1e7)).padStart(7, '0')}\t${agent ?? N}\t${agent ? `Agent ${agent % 5}` : N}\t${iso(at)}\t${connected ? iso(at + wait) : N}\t${connected ? iso(at + wait + duration * 1000) : N}\t${connected ? duration : N}\n`;
    }),
  );
  const tk = Date.now();
  for (const t of tables)
    await one(`select setval(pg_get_serial_sequence('${t}', 'id'), (select max(id) from ${t}))`);
  {
    const client = await pool.connect();
    try {
      await client.query(`set maintenance_work_mem = '256MB'`);
      for (const i of indexes) await client.query(i.def);
      for (const t of tables) await client.query(`vacuum analyze ${t}`);
    } finally {
      client.release();
    }
  }
  const ti = Date.now();
  say(
    `  seed (COPY FROM STDIN) ${secs(ti - t1)}: contacts ${secs(tc - t1)}, messages ${secs(tm - tc)}, ` +
      `calls ${secs(tk - tm)}, ${indexes.length} indexes + analyze ${secs(ti - tk)} ` +
      `(${optedOut} opt-outs, ${broadcastTexts} broadcast texts)`,
  );

  // --- Build every rollup once through the module: the first sweep of a database builds every day in one pass
  // (rebuildAll), as the first start of a platform does. Then the day-by-day path the events and later sweeps
  // take, timed on a sample of install-days.
  const tb = Date.now();
  await sweepAnalytics(platform);
  const tr = Date.now();
  for (const t of ['analytics_daily', 'analytics_bins', 'analytics_agent_daily'])
    await one(`vacuum analyze ${t}`);
  const rows = (
    await one<{ d: number; b: number; a: number }>(
      `select (select count(*) from analytics_daily)::int as d, (select count(*) from analytics_bins)::int as b,
              (select count(*) from analytics_agent_daily)::int as a`,
    )
  )[0];
  const sample = await one<DayKey>(
    'select business_id, install_id, day::text as day from analytics_daily order by random() limit 2000',
  );
  const td = Date.now();
  await rebuildDays(platform, sample);
  const te = Date.now();
  say(
    `  rollup build          ${secs(tr - tb)} (first sweep: every day in one pass); rows: daily ${rows?.d}, ` +
      `bins ${rows?.b}, agent ${rows?.a}; day by day: ${sample.length} install-days in ${secs(te - td)} ` +
      `(${Math.round(sample.length / ((te - td) / 1000))}/s)`,
  );

  // --- Dashboards through the service functions.
  const startDay = new Date(start + DAY_MS).toISOString().slice(0, 10);
  const plus = (day: string, n: number) =>
    new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
  const range30 = () => {
    const from = plus(startDay, pick(335));
    return { from, to: plus(from, 29) };
  };
  const range365 = { from: startDay, to: plus(startDay, 364) };
  const by = { kind: 'system', source: 'cli', name: 'analytics bench' } as const;
  const businessCtx = (b: number) =>
    tenantContext(deps, { level: 'business', agencyId: agencyOf(b), businessId: bBase + 1 + b }, by);
  const agencyCtx = (agencyId: number) => tenantContext(deps, { level: 'agency', agencyId }, by);
  let cpu = { pg: Number.NaN, node: Number.NaN };
  const time = async (runs: number, fn: () => Promise<unknown>) => {
    const ms: number[] = [];
    const pg0 = pgCpu();
    const node0 = process.cpuUsage();
    for (let i = 0; i < runs && Date.now() < deadline; i++) {
      const t = performance.now();
      await fn();
      ms.push(performance.now() - t);
    }
    const node = process.cpuUsage(node0);
    cpu = { pg: (pgCpu() - pg0) / ms.length, node: (node.user + node.system) / 1000 / ms.length };
    return ms;
  };
  const stats = (ms: number[]) => {
    const s = [...ms].sort((a, b) => a - b);
    const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? Number.NaN;
    return { p50: q(0.5), p95: q(0.95), max: s[s.length - 1] ?? Number.NaN, n: s.length };
  };
  const line = (label: string, ms: number[], goal?: number) => {
    const s = stats(ms);
    const ok =
      goal === undefined
        ? ''
        : s.p95 < goal
          ? `  (goal p95 < ${goal} ms: met)`
          : `  (goal p95 < ${goal} ms: MISSED)`;
    say(
      `  ${label.padEnd(38)} p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms (${s.n} runs)${ok}` +
        (Number.isNaN(cpu.pg)
          ? ''
          : `; CPU a run: PostgreSQL ${cpu.pg.toFixed(0)} ms, bench ${cpu.node.toFixed(0)} ms`),
    );
  };
  // One warm-up each, as a running server's caches would be.
  await businessAnalytics(businessCtx(0), range30());
  await agencyAnalytics(agencyCtx(aBase + 1), range30());
  line(
    'business dashboard, 30 days',
    await time(BUSINESS_RUNS, () => businessAnalytics(businessCtx(pick(BUSINESSES)), range30())),
    100,
  );
  line(
    'business dashboard, 365 days',
    await time(YEAR_RUNS, () => businessAnalytics(businessCtx(pick(BUSINESSES)), range365)),
  );
  line(
    'agency (100 businesses), 30 days',
    await time(AGENCY_RUNS, () => agencyAnalytics(agencyCtx(aBase + 1 + pick(AGENCIES)), range30())),
    300,
  );
  line(
    'agency (100 businesses), 365 days',
    await time(YEAR_RUNS, () => agencyAnalytics(agencyCtx(aBase + 1 + pick(AGENCIES)), range365)),
  );

  // --- From an event to its rollup row: a new text (or call) now, published as its service does after
  // commit, heard by the module's listeners (mark its day, rebuild the marked days).
  const idle = registerAnalyticsListeners(events, deps);
  const latency: number[] = [];
  for (let i = 0; i < EVENT_RUNS && Date.now() < deadline; i++) {
    const b = pick(BUSINESSES);
    const list = installsOf[b] ?? [];
    const install = list[pick(list.length)] ?? 0;
    const businessId = bBase + 1 + b;
    const j = pick(CONTACTS_PER_BUSINESS);
    const contactId = cBase + 1 + b * CONTACTS_PER_BUSINESS + j;
    const isCall = i % 2 === 1;
    const column = isCall ? 'calls_answered' : 'texts_out';
    const figure = async () =>
      Number(
        (
          await one<{ n: number }>(
            `select coalesce((select ${column} from analytics_daily where business_id = $1 and install_id = $2
               and day = (now() at time zone analytics_tz($1, $2))::date), 0)::int as n`,
            [businessId, install],
          )
        )[0]?.n,
      );
    const before = await figure();
    const t = performance.now();
    if (isCall) {
      const id = (
        await one<{ id: number }>(
          `insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, requested_at,
             connected_at, ended_at, duration, agent_user_id, agent_name)
           values ($1, $2, $3, 'callback', 'completed', '+15550000000', now() - interval '2 minutes',
             now() - interval '100 seconds', now(), 100, 1, 'Agent') returning id`,
          [agencyOf(b), businessId, install],
        )
      )[0]?.id as number;
      publish(platform, callCompleted, {
        callId: id,
        agencyId: agencyOf(b),
        businessId,
        installId: install,
        visitorPhone: '+15550000000',
        visitorName: null,
        duration: 100,
      });
    } else {
      const id = (
        await one<{ id: number }>(
          `insert into messages (agency_id, business_id, contact_id, install_id, direction, body, status,
             from_number, to_number) values ($1, $2, $3, $4, 'out', 'Bench', 'sent', '+18000000000', '+15550000000')
           returning id`,
          [agencyOf(b), businessId, contactId, install],
        )
      )[0]?.id as number;
      publish(platform, messageSent, {
        messageId: id,
        agencyId: agencyOf(b),
        businessId,
        contactId,
        installId: install,
      });
    }
    while ((await figure()) <= before) {
      if (performance.now() - t > 30_000) throw new Error('an event did not reach its rollup in 30 s');
      await new Promise((r) => setTimeout(r, 2));
    }
    latency.push(performance.now() - t);
  }
  await idle();
  cpu = { pg: Number.NaN, node: Number.NaN };
  line('event -> rollup row (texts and calls)', latency);

  // --- One agency of 1,000 businesses: every business moves to the first agency, and its rollup rows with
  // it (their agency_id is the business's, as a rebuild would write it).
  const big = aBase + 1;
  await one('update businesses set agency_id = $1 where id > $2', [big, bBase]);
  for (const t of ['analytics_daily', 'analytics_bins'])
    await one(`update ${t} set agency_id = $1 where agency_id <> $1`, [big]);
  for (const t of ['analytics_daily', 'analytics_bins']) await one(`vacuum analyze ${t}`);
  await agencyAnalytics(agencyCtx(big), range30());
  line(
    'agency (1,000 businesses), 30 days',
    await time(AGENCY_RUNS, () => agencyAnalytics(agencyCtx(big), range30())),
    300,
  );
  line(
    'agency (1,000 businesses), 365 days',
    await time(YEAR_RUNS, () => agencyAnalytics(agencyCtx(big), range365)),
  );
  say(`  total                 ${secs(Date.now() - started)}`);
  say(loadAverageLine(load0));
}
