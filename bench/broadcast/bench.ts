// Broadcasts (issue 19): one broadcast to BENCH_RECIPIENTS contacts (10,000 by default) of the demo
// business, spread over BENCH_NUMBERS sending numbers (4), through the whole pipeline as `npm start` runs
// it (embedded PostgreSQL, the sandbox carrier in process, the jobs worked in process) with the throttle
// off (BROADCAST_THROTTLE=off). Prints recipients a second from the start to the last message handed to
// the carrier (goal >= 2,000/s on two cores), the time from the start to the first message (goal < 1 s),
// the CPU per recipient of the server and of PostgreSQL, and the load average (the machine may be shared).
import os from 'node:os';
import { startSending } from '../../apps/server/src/modules/broadcasts/engine.ts';
import { inTransaction, tenantContext } from '../../apps/server/src/platform/tenancy/context.ts';
import { demoBusiness, inProcessPlatform, loadAverageLine } from '../lib/in-process.ts';
import { postgresCpuMs } from '../lib/postgres-cpu.ts';

const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const NUMBERS = Number(process.env.BENCH_NUMBERS ?? 4);

const platform = await inProcessPlatform('stn-bench-broadcast-', { BROADCAST_THROTTLE: 'off' });
const { app, pool, dataDir } = platform;
await app.ready();
const sandbox = app.deps.carrier.sandbox;
if (!sandbox) throw new Error('no sandbox');
// The carrier's status callbacks (queued, sent, delivered: three a message) come after the sending, as
// Twilio's do at its numbers' pace: BENCH_CALLBACKS=on plays them during it (the inbound bench measures
// the webhooks).
const callbacks = process.env.BENCH_CALLBACKS === 'on';
if (!callbacks) sandbox.timings.messageQueued = 3_600_000;

const demo = await demoBusiness(pool);
await pool.query('update businesses set messages = 0 where id = $1', [demo.business_id]);
const tag = (
  await pool.query('insert into tags (business_id, name) values ($1, $2) returning id', [
    demo.business_id,
    'Bench audience',
  ])
).rows[0].id as number;
// The recipients' zone is one where it is daytime now, so that quiet hours defer none of them.
const zone =
  ['UTC', 'Asia/Tokyo', 'Asia/Kolkata', 'Europe/Berlin', 'America/New_York', 'America/Los_Angeles'].find(
    (z) => {
      const hour = Number(
        new Intl.DateTimeFormat('en-US', { timeZone: z, hour: 'numeric', hourCycle: 'h23' }).format(),
      );
      return hour >= 9 && hour < 19;
    },
  ) ?? 'UTC';
await pool.query(
  `with c as (
     insert into contacts (agency_id, business_id, install_id, phone, first_name, last_name, time_zone)
     select $1, $2, $3, '+1415' || (2000000 + i)::text, 'Ann' || i, 'Bench', $6
       from generate_series(1, $4::int) as i
     on conflict do nothing returning id)
   insert into contact_tags (contact_id, tag_id) select id, $5 from c`,
  [demo.agency_id, demo.business_id, demo.install_id, RECIPIENTS, tag, zone],
);
const broadcasterIds: number[] = [];
for (let i = 0; i < NUMBERS; i++)
  broadcasterIds.push(
    (
      await pool.query(
        `insert into broadcasters (agency_id, business_id, number_id, phone_number, kind)
         values ($1, $2, $3, $4, 'toll_free') returning id`,
        [demo.agency_id, demo.business_id, 900_000 + i, `+1833555${String(i).padStart(4, '0')}`],
      )
    ).rows[0].id as number,
  );
const id = (
  await pool.query(
    `insert into broadcasts (agency_id, business_id, name, body, audience, broadcaster_ids)
     values ($1, $2, 'Bench', 'Hi {first_name|there}, our spring offer is on.', $3, $4) returning id`,
    [
      demo.agency_id,
      demo.business_id,
      JSON.stringify({ tag_ids: [tag], exclude_tag_ids: [], install_ids: [], contact_ids: [] }),
      JSON.stringify(broadcasterIds),
    ],
  )
).rows[0].id as number;
const ctx = tenantContext(
  app.deps,
  { level: 'business', agencyId: demo.agency_id, businessId: demo.business_id },
  { kind: 'system', source: 'cli', name: 'bench' },
);

const froms = new Set(
  (await pool.query('select phone_number from broadcasters where id = any($1)', [broadcasterIds])).rows.map(
    (r) => r.phone_number as string,
  ),
);
const taken = () => sandbox.sentMessages().filter((m) => froms.has(m.from));
const cpu0 = process.cpuUsage();
const pg0 = postgresCpuMs(dataDir);
const load0 = os.loadavg();
const t0 = Date.now();
await inTransaction(ctx, (tx) => startSending(tx, { broadcastId: id, at: null }));
const started = Date.now();
for (;;) {
  const { rows: s } = await pool.query('select status from broadcasts where id = $1', [id]);
  if (s[0]?.status !== 'sending') break;
  if (process.env.BENCH_DEBUG)
    console.log(Date.now() - t0, taken().length, pool.totalCount, pool.idleCount, pool.waitingCount);
  await new Promise((r) => setTimeout(r, 500));
}
const sent = taken();
const last = Math.max(...sent.map((m) => m.dateCreated));
const first = Math.min(...sent.map((m) => m.dateCreated));
const cpu = process.cpuUsage(cpu0);
const pgMs = postgresCpuMs(dataDir) - pg0;
const seconds = (last - t0) / 1000;
const once = new Set(sent.map((m) => m.to)).size;
console.log(
  `broadcast: ${sent.length} messages to ${once} recipients over ${NUMBERS} numbers, throttle off ` +
    `(start: snapshot and jobs, ${started - t0} ms; status callbacks ${callbacks ? 'during' : 'after'} it)`,
);
console.log(`  recipients/s        ${Math.round(sent.length / seconds)} (goal >= 2,000)`);
console.log(`  first message       ${first - t0} ms after the start (goal < 1,000 ms)`);
console.log(`  all handed over in  ${seconds.toFixed(1)} s`);
console.log(
  `  CPU per recipient   server ${((cpu.user + cpu.system) / 1000 / sent.length).toFixed(3)} ms, ` +
    `PostgreSQL ${(pgMs / sent.length).toFixed(3)} ms`,
);
console.log(loadAverageLine(load0));
await platform.close();
