// Storage a text and a call take (issue 27, docs/operations.md "Sizing"): the platform as `npm start` runs
// it (bench/lib/in-process.ts), then
//  - BENCH_TEXTS (5,000) signed inbound SMS webhooks through the real route (/webhooks/twilio/sms-in, in
//    process, 16 at a time) from BENCH_PHONES (500) visitor phones, bodies of 60-160 characters: every row
//    the real pipeline writes (message, contact, conversation, events, jobs);
//  - BENCH_CALLS (2,000) calls with two legs each, inserted as rows (the analytics bench's shape: the call
//    path itself rings phones in real time, too slow to drive here), so their figure is an estimate;
// and prints, per table, how much pg_total_relation_size (heap, TOAST, indexes) grew, and per text or call.
// Measured on the embedded PostgreSQL after VACUUM ANALYZE; pg-boss's job rows are printed apart (they are
// archived and deleted after days, the rest stays).
import crypto from 'node:crypto';
import { agencyCarrierAccount } from '../../apps/server/src/modules/agencies/service.ts';
import { DEMO_INSTALL_NUMBER } from '../../apps/server/src/modules/telephony/service.ts';
import { twilioSignature } from '../../apps/server/src/platform/webhooks/tree.ts';
import { demoBusiness, inProcessPlatform } from '../lib/in-process.ts';

const TEXTS = Number(process.env.BENCH_TEXTS ?? 5000);
const PHONES = Number(process.env.BENCH_PHONES ?? 500);
const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const PUBLIC = 'http://localhost:3000';
const SMS_PATH = '/webhooks/twilio/sms-in';

const platform = await inProcessPlatform('stn-bench-storage-');
const { app, pool } = platform;
await app.ready();
const demo = await demoBusiness(pool);
const account = await agencyCarrierAccount(app.deps, demo.agency_id);
if (!account) throw new Error('no demo carrier account');

type Sizes = Map<string, number>;
async function sizes(): Promise<Sizes> {
  await pool.query('vacuum analyze');
  const { rows } = await pool.query<{ name: string; bytes: string }>(
    `select n.nspname || '.' || c.relname as name, pg_total_relation_size(c.oid) as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname in ('public', 'pgboss')`,
  );
  return new Map(rows.map((r) => [r.name, Number(r.bytes)]));
}
function grown(before: Sizes, after: Sizes): [string, number][] {
  return [...after]
    .map(([name, bytes]): [string, number] => [name, bytes - (before.get(name) ?? 0)])
    .filter(([, d]) => d > 0)
    .sort((a, b) => b[1] - a[1]);
}
function print(title: string, per: number, rows: [string, number][]) {
  const app = rows.filter(([n]) => !n.startsWith('pgboss.'));
  const jobs = rows.filter(([n]) => n.startsWith('pgboss.'));
  const sum = (r: [string, number][]) => r.reduce((s, [, d]) => s + d, 0);
  console.log(`  ${title}: ${(sum(app) / per).toFixed(0)} bytes each in the platform's tables`);
  for (const [name, d] of app.slice(0, 10))
    console.log(`    ${name.padEnd(40)} ${(d / per).toFixed(0).padStart(6)} B`);
  if (jobs.length > 0)
    console.log(
      `    (pg-boss job rows, archived then deleted: ${(sum(jobs) / per).toFixed(0)} B each meanwhile)`,
    );
}

const words =
  'hello yes no can we book tomorrow at 3 thanks please call me back about the appointment price'.split(' ');
const body = () => {
  let s = '';
  const len = 60 + crypto.randomInt(101);
  while (s.length < len) s += `${words[crypto.randomInt(words.length)]} `;
  return s.slice(0, len);
};

console.log(`storage bench: ${TEXTS} inbound texts from ${PHONES} phones, ${CALLS} calls of two legs`);
const before = await sizes();
let next = 0;
let failed = 0;
async function sender() {
  for (;;) {
    const i = next++;
    if (i >= TEXTS) return;
    const params = {
      AccountSid: account?.accountSid ?? '',
      MessageSid: `SM${crypto.randomBytes(16).toString('hex')}`,
      From: `+1415555${String(i % PHONES).padStart(4, '0')}`,
      To: DEMO_INSTALL_NUMBER,
      Body: body(),
      NumMedia: '0',
    };
    const res = await app.inject({
      method: 'POST',
      url: SMS_PATH,
      headers: {
        host: 'localhost:3000',
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(account?.authToken ?? '', `${PUBLIC}${SMS_PATH}`, params),
      },
      payload: new URLSearchParams(params).toString(),
    });
    if (res.statusCode !== 200) failed++;
  }
}
await Promise.all(Array.from({ length: 16 }, sender));
// Stored in batches (ADR 033): wait until every text is a row.
for (;;) {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from messages where business_id = $1 and direction = 'in'`,
    [demo.business_id],
  );
  if ((rows[0]?.n ?? 0) >= TEXTS - failed) break;
  await new Promise((r) => setTimeout(r, 200));
}
const afterTexts = await sizes();
print(`inbound texts (${failed} refused)`, TEXTS, grown(before, afterTexts));

await pool.query(
  `with c as (
     insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, agent_user_id,
                        agent_name, requested_at, connected_at, ended_at, duration)
     select $1, $2, $3, 'callback', case when i % 10 < 7 then 'completed' else 'missed' end,
            '+1555' || lpad((i % 10000000)::text, 7, '0'), null, 'Agent ' || (i % 5),
            now() - make_interval(secs => i * 60), now() - make_interval(secs => i * 60 - 20),
            now() - make_interval(secs => i * 60 - 200), 180
       from generate_series(1, $4::int) i
     returning id)
   insert into call_legs (call_id, business_id, call_sid, role, to_number, agent_name, status, sequence, duration)
   select c.id, $2, 'CA' || md5(c.id::text || r.role), r.role, '+15005550101', 'Agent 1', 'completed', 3, 180
     from c cross join (values ('staff'), ('visitor')) r(role)`,
  [demo.agency_id, demo.business_id, demo.install_id, CALLS],
);
const afterCalls = await sizes();
print('calls with two legs (rows inserted, an estimate)', CALLS, grown(afterTexts, afterCalls));

await platform.close();
process.exit(0);
