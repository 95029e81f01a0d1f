// Every dashboard figure against an independent count over the raw rows (issue 24): calls, texts, opt-outs,
// lead forms and automation texts are seeded over twelve days around the US change to summer time, on installs
// in Los Angeles, Tokyo and the default zone (New York) and on no install; the expected figures are counted here
// in JavaScript from the raw rows with their local day and hour read in each install's zone; the server's come
// from its rollups (built by the sweep job and by events). A call at 23:30 in Los Angeles counts on its local
// day; the CSV is the screen's figures; the agency's dashboard is its businesses' sum and nobody else's.
import {
  ANALYTICS_COUNTERS,
  CONNECT_HIST_BINS,
  type TAnalyticsCounters,
  type TBusinessAnalytics,
} from '@stn/contracts/analytics';
import { beforeAll, describe, expect, it } from 'vitest';
import { expect422, rows, useSuite } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { messageReceived } from '../chats/service.ts';
import { sweepAnalytics } from './jobs.ts';
import { rebuildAll } from './rollup.ts';

const c = useSuite();
const FROM = '2026-03-01';
const TO = '2026-03-12';
const URL = '/api/v1/business/analytics';

/** A small deterministic random generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = random(24);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
/** An instant between Feb 27 and Mar 14 (UTC), a little outside the range on both ends. */
const someInstant = () => new Date(Date.parse('2026-02-27T00:00:00Z') + Math.floor(rnd() * 16 * 86_400_000));

let bizA: number;
let bizA2: number;
let agencyA: number;
const installs: Record<'la' | 'tk' | 'ny' | 'a2' | 'b', number> = { la: 0, tk: 0, ny: 0, a2: 0, b: 0 };

const sweep = () => sweepAnalytics(platformSystemContext(c.t.app.deps, 'job', 'test sweep'));

async function addInstall(agency: number, business: number, name: string, timezone?: string) {
  const [r] = await rows(
    c.t,
    `insert into installs (agency_id, business_id, key, name, settings) values ($1, $2, $3, $4, $5) returning id`,
    [agency, business, `key-${name}-${business}`, name, timezone ? { timezone } : {}],
  );
  return r.id as number;
}

let phones = 0;
async function addContacts(agency: number, business: number, n: number, install: number | null) {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const [r] = await rows(
      c.t,
      `insert into contacts (agency_id, business_id, install_id, phone, opted_out_at)
       values ($1, $2, $3, $4, $5) returning id`,
      [
        agency,
        business,
        install,
        `+1415${String(++phones).padStart(7, '0')}`,
        rnd() < 0.3 ? someInstant() : null,
      ],
    );
    ids.push(r.id);
  }
  return ids;
}

async function seedCalls(
  agency: number,
  business: number,
  installIds: number[],
  n: number,
  agents: number[],
) {
  for (let i = 0; i < n; i++) {
    const kind = pick(['callback', 'callback', 'callback', 'scheduled', 'inbound'] as const);
    const requested = someInstant();
    const outcome =
      kind === 'scheduled'
        ? pick(['scheduled', 'completed', 'canceled'] as const)
        : pick(['completed', 'completed', 'missed', 'no_answer', 'failed'] as const);
    // Callbacks are connected 0..40 s after the request, now and then much later (the overflow bin).
    const wait = rnd() < 0.05 ? 200 + Math.floor(rnd() * 100) : Math.floor(rnd() * 40_000) / 1000;
    const connected =
      outcome === 'completed' && kind !== 'inbound' ? new Date(requested.getTime() + wait * 1000) : null;
    const agent = outcome === 'completed' ? pick(agents) : null;
    await rows(
      c.t,
      `insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, requested_at,
         connected_at, duration, agent_user_id, agent_name)
       values ($1, $2, $3, $4, $5, '+14155550100', $6, $7, $8, $9, $10)`,
      [
        agency,
        business,
        pick(installIds),
        kind,
        outcome,
        requested,
        connected,
        outcome === 'completed' ? 5 + Math.floor(rnd() * 300) : null,
        agent,
        agent ? `Agent ${agent}` : null,
      ],
    );
  }
}

async function seedMessages(
  agency: number,
  business: number,
  contacts: number[],
  installIds: (number | null)[],
  n: number,
) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const direction = rnd() < 0.45 ? 'in' : 'out';
    const status =
      direction === 'in'
        ? 'received'
        : pick(['delivered', 'delivered', 'sent', 'failed', 'scheduled', 'canceled']);
    const [r] = await rows(
      c.t,
      `insert into messages (agency_id, business_id, contact_id, install_id, direction, body, status, from_number,
         to_number, segments, sent_at, broadcast_id)
       values ($1, $2, $3, $4, $5, 'hi', $6, '+14155550000', '+14155550001', $7, $8, $9) returning id`,
      [
        agency,
        business,
        pick(contacts),
        pick(installIds),
        direction,
        status,
        1 + Math.floor(rnd() * 3),
        someInstant(),
        direction === 'out' && rnd() < 0.2 ? 1 + Math.floor(rnd() * 5) : null,
      ],
    );
    if (direction === 'out') out.push(r.id);
  }
  return out;
}

beforeAll(async () => {
  bizA = c.seed.a.business.id;
  agencyA = c.seed.a.agency.id;
  const agencyB = c.seed.b.agency.id;
  const bizB = c.seed.b.business.id;
  [{ id: bizA2 }] = await rows(
    c.t,
    `insert into businesses (agency_id, name) values ($1, 'Second A') returning id`,
    [agencyA],
  );
  installs.la = await addInstall(agencyA, bizA, 'la', 'America/Los_Angeles');
  installs.tk = await addInstall(agencyA, bizA, 'tk', 'Asia/Tokyo');
  installs.ny = await addInstall(agencyA, bizA, 'ny');
  installs.a2 = await addInstall(agencyA, bizA2, 'a2', 'Europe/Lisbon');
  installs.b = await addInstall(agencyB, bizB, 'b', 'UTC');
  const agents = [c.seed.a.businessAdmin.id, c.seed.a.businessUser.id];

  await seedCalls(agencyA, bizA, [installs.la, installs.tk, installs.ny], 260, agents);
  await seedCalls(agencyA, bizA2, [installs.a2], 60, agents);
  await seedCalls(agencyB, bizB, [installs.b], 60, [c.seed.b.businessAdmin.id]);
  // 23:30 on March 5 in Los Angeles is 07:30 on March 6 in UTC: it belongs to March 5.
  await rows(
    c.t,
    `insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, requested_at, connected_at,
       duration, agent_user_id, agent_name)
     values ($1, $2, $3, 'callback', 'completed', '+14155550199', '2026-03-06T07:30:00Z', '2026-03-06T07:30:09Z', 60, $4, 'Late')`,
    [agencyA, bizA, installs.la, agents[0]],
  );

  const contactsA = [
    ...(await addContacts(agencyA, bizA, 12, installs.la)),
    ...(await addContacts(agencyA, bizA, 8, installs.tk)),
    ...(await addContacts(agencyA, bizA, 6, null)),
  ];
  const contactsA2 = await addContacts(agencyA, bizA2, 6, installs.a2);
  const contactsB = await addContacts(agencyB, bizB, 6, installs.b);
  const sentA = await seedMessages(
    agencyA,
    bizA,
    contactsA,
    [installs.la, installs.tk, installs.ny, null],
    420,
  );
  await seedMessages(agencyA, bizA2, contactsA2, [installs.a2], 80);
  await seedMessages(agencyB, bizB, contactsB, [installs.b], 80);

  // Lead forms sent on each install and on none.
  const [form] = await rows(
    c.t,
    `insert into lead_forms (agency_id, business_id, name, styling) values ($1, $2, 'Form', '{}') returning id`,
    [agencyA, bizA],
  );
  for (let i = 0; i < 40; i++)
    await rows(
      c.t,
      `insert into lead_submissions (agency_id, business_id, lead_form_id, install_id, contact_id, language, source, created_at)
       values ($1, $2, $3, $4, $5, 'en', 'widget', $6)`,
      [agencyA, bizA, form.id, pick([installs.la, installs.tk, null]), pick(contactsA), someInstant()],
    );
  // Some sent texts were an automation's.
  for (const [i, id] of sentA.filter((_, i) => i % 5 === 0).entries())
    await rows(
      c.t,
      `insert into automation_steps (run_id, business_id, automation_id, seq, block_id, type, status, detail, finished_at)
       values ($1, $2, 1, 0, 'b', 'SendMessage', 'done', $3, now())`,
      [1000 + i, bizA, { message_id: id }],
    );
  await sweep();
});

type Expected = {
  days: Map<string, TAnalyticsCounters>;
  connect: number[];
  byHour: number[];
  agents: Map<number, { calls_answered: number; talk_seconds: number }>;
};
const zero = (): TAnalyticsCounters =>
  Object.fromEntries(ANALYTICS_COUNTERS.map((k) => [k, 0])) as TAnalyticsCounters;

/**
 * The figures of some businesses (and installs: null = all, install 0 = rows of no install), counted from the raw
 * rows: each row's local day and hour come from its install's zone (no install: the business's first install's).
 */
async function expected(businessIds: number[], installIds: number[] | null): Promise<Expected> {
  const zone = `coalesce(nullif(i.settings->>'timezone', ''), 'America/New_York')`;
  const zoneOf = (col: string, biz: string) => `coalesce(
      (select ${zone} from installs i where i.id = ${col}),
      (select ${zone} from installs i where i.business_id = ${biz} order by i.id limit 1), 'America/New_York')`;
  const local = (ts: string, col: string, biz: string) =>
    `to_char(${ts} at time zone ${zoneOf(col, biz)}, 'YYYY-MM-DD')`;
  const inInstalls = (col: string) => (installIds ? `and coalesce(${col}, 0) = any($2::int[])` : '');
  const params = installIds ? [businessIds, installIds] : [businessIds];
  const calls = await rows(
    c.t,
    `select kind, outcome, connected_at is not null as connected, duration, agent_user_id,
       ${local('requested_at', 'install_id', 'business_id')} as day,
       extract(hour from coalesce(connected_at, requested_at) at time zone ${zoneOf('install_id', 'business_id')})::int as hour,
       floor(extract(epoch from connected_at - requested_at))::int as wait
     from calls where business_id = any($1::int[]) ${inInstalls('install_id')}`,
    params,
  );
  const messages = await rows(
    c.t,
    `select m.id, m.contact_id, m.direction, m.status, m.segments, m.broadcast_id,
       ${local('m.sent_at', 'm.install_id', 'm.business_id')} as day,
       (select p.id from messages p where p.contact_id = m.contact_id order by p.sent_at, p.id limit 1) = m.id as first,
       exists (select 1 from automation_steps s where s.type = 'SendMessage' and s.detail->>'message_id' = m.id::text) as auto
     from messages m where m.business_id = any($1::int[]) ${inInstalls('m.install_id')}`,
    params,
  );
  const optOuts = await rows(
    c.t,
    `select ${local('opted_out_at', 'install_id', 'business_id')} as day from contacts
     where opted_out_at is not null and business_id = any($1::int[]) ${inInstalls('install_id')}`,
    params,
  );
  const leads = await rows(
    c.t,
    `select ${local('created_at', 'install_id', 'business_id')} as day from lead_submissions
     where business_id = any($1::int[]) ${inInstalls('install_id')}`,
    params,
  );
  const days = new Map<string, TAnalyticsCounters>();
  const dayOf = (d: string) => {
    const x = days.get(d) ?? zero();
    days.set(d, x);
    return x;
  };
  const inRange = (d: string) => d >= FROM && d <= TO;
  const out: Expected = { days, connect: [], byHour: new Array(24).fill(0), agents: new Map() };
  for (const r of calls) {
    if (!inRange(r.day)) continue;
    const d = dayOf(r.day);
    const answered = r.connected || r.outcome === 'completed';
    if (r.kind === 'callback') {
      d.callbacks_requested++;
      d.leads_callback++;
      if (r.connected) {
        d.callbacks_answered++;
        out.connect.push(Math.min(Math.max(r.wait, 0), CONNECT_HIST_BINS - 1));
      }
      if (r.outcome === 'missed') d.callbacks_missed++;
    }
    if (r.kind === 'scheduled') {
      d.scheduled_calls++;
      d.leads_booking++;
    }
    if (r.kind === 'inbound') {
      d.inbound_calls++;
      if (answered) d.inbound_answered++;
    }
    if (answered) {
      d.calls_answered++;
      d.talk_seconds += r.duration ?? 0;
      out.byHour[r.hour] = (out.byHour[r.hour] ?? 0) + 1;
      if (r.agent_user_id) {
        const a = out.agents.get(r.agent_user_id) ?? { calls_answered: 0, talk_seconds: 0 };
        a.calls_answered++;
        a.talk_seconds += r.duration ?? 0;
        out.agents.set(r.agent_user_id, a);
      }
    }
  }
  for (const m of messages) {
    if (!inRange(m.day)) continue;
    const d = dayOf(m.day);
    const sent = m.direction === 'out' && !['scheduled', 'canceled', 'draft'].includes(m.status);
    if (m.direction === 'in') d.texts_in++;
    if (sent) {
      d.texts_out++;
      d.segments_out += m.segments;
      if (m.broadcast_id) d.broadcast_texts++;
      if (m.auto) d.automation_texts++;
    }
    if (m.first) {
      d.conversations_started++;
      if (m.direction === 'in') d.leads_text++;
    }
  }
  for (const o of optOuts) if (inRange(o.day)) dayOf(o.day).opt_outs++;
  for (const l of leads) if (inRange(l.day)) dayOf(l.day).leads_form++;
  return out;
}

/** The nearest-rank percentile of a list of whole seconds (what percentile_disc answers). */
const nearestRank = (list: number[], p: number) => {
  if (list.length === 0) return null;
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? null;
};

function expectFigures(
  got: TBusinessAnalytics | Omit<TBusinessAnalytics, 'agents' | 'installs' | 'install_ids'>,
  want: Expected,
) {
  const dates = got.days.map((d) => d.day);
  expect(dates[0]).toBe(FROM);
  expect(dates.at(-1)).toBe(TO);
  expect(dates).toHaveLength(12);
  const totals = zero();
  for (const d of got.days) {
    const { day, ...counters } = d;
    expect(counters, `figures of ${day}`).toEqual(want.days.get(day) ?? zero());
    for (const k of ANALYTICS_COUNTERS) totals[k] += counters[k];
  }
  expect(got.totals).toEqual(totals);
  expect(got.connect.measured).toBe(want.connect.length);
  expect(got.connect.median).toBe(nearestRank(want.connect, 0.5));
  expect(got.connect.p90).toBe(nearestRank(want.connect, 0.9));
  expect(got.connect.within_promise).toBe(want.connect.filter((s) => s < 14).length);
  expect(got.by_hour).toEqual(want.byHour);
  const weekday = new Array(7).fill(0);
  for (const [day, d] of want.days) weekday[new Date(`${day}T00:00:00Z`).getUTCDay()] += d.calls_answered;
  expect(got.by_weekday).toEqual(weekday);
}

const post = async (payload: object, email = c.seed.a.businessAdmin.email) =>
  c.api.post(await c.token(email), URL, payload);

describe('the business dashboard', () => {
  it('equals an independent count over the raw rows, each row on its local day', async () => {
    const res = await post({ from: FROM, to: TO });
    expect(res.statusCode, res.body).toBe(200);
    const got: TBusinessAnalytics = res.json().data;
    const want = await expected([bizA], null);
    // The seed is rich enough for the comparison to mean something.
    expect(got.totals.callbacks_requested).toBeGreaterThan(50);
    expect(got.totals.texts_in).toBeGreaterThan(50);
    expect(got.totals.opt_outs + got.totals.leads_form + got.totals.automation_texts).toBeGreaterThan(10);
    expect(got.connect.histogram.at(-1)).toBeGreaterThan(0);
    expectFigures(got, want);
    const agents = new Map(
      got.agents.map((a) => [
        a.agent_user_id,
        { calls_answered: a.calls_answered, talk_seconds: a.talk_seconds },
      ]),
    );
    expect(agents).toEqual(want.agents);
    expect(got.installs.map((i) => i.id)).toEqual([installs.la, installs.tk, installs.ny]);
  });

  it('builds the same rows in one pass over everything (the first sweep) as day by day', async () => {
    const all = async () =>
      Promise.all(
        ['analytics_daily', 'analytics_bins', 'analytics_agent_daily'].map((t) =>
          rows(
            c.t,
            `select * from ${t} order by business_id, install_id, day${t === 'analytics_daily' ? '' : ', 5, 6'}`,
          ),
        ),
      );
    const strip = (tables: Record<string, unknown>[][]) =>
      tables.map((list) => list.map(({ built_at: _, ...r }) => r));
    const dayByDay = strip(await all());
    expect(dayByDay[0]?.length).toBeGreaterThan(30);
    await rebuildAll(platformSystemContext(c.t.app.deps, 'job', 'test'));
    expect(strip(await all())).toEqual(dayByDay);
  });

  it('agrees with PostgreSQL percentile_disc on the time to connect', async () => {
    const [pg] = await rows(
      c.t,
      `select percentile_disc(0.5) within group (order by w) as median, percentile_disc(0.9) within group (order by w) as p90
       from (select least(floor(extract(epoch from connected_at - requested_at)), 121)::int as w
             from calls c join installs i on i.id = c.install_id
             where c.business_id = $1 and c.kind = 'callback' and c.connected_at is not null
               and (c.requested_at at time zone coalesce(nullif(i.settings->>'timezone', ''), 'America/New_York'))::date
                   between $2::date and $3::date) s`,
      [bizA, FROM, TO],
    );
    const got: TBusinessAnalytics = (await post({ from: FROM, to: TO })).json().data;
    expect([got.connect.median, got.connect.p90]).toEqual([pg.median, pg.p90]);
  });

  it('counts a call at 23:30 in Los Angeles on its local day, not on the UTC one', async () => {
    const got: TBusinessAnalytics = (await post({ from: FROM, to: TO, install_ids: [installs.la] })).json()
      .data;
    const want = await expected([bizA], [installs.la]);
    expectFigures(got, want);
    const late = await rows(
      c.t,
      `select count(*)::int as n from calls where install_id = $1 and kind = 'callback'
         and (requested_at at time zone 'America/Los_Angeles')::date = '2026-03-05'`,
      [installs.la],
    );
    expect(got.days.find((d) => d.day === '2026-03-05')?.callbacks_requested).toBe(late[0].n);
    expect(late[0].n).toBeGreaterThan(0);
  });

  it('reads chosen installs only (Tokyo: no rows of the other installs or of no install)', async () => {
    const got: TBusinessAnalytics = (await post({ from: FROM, to: TO, install_ids: [installs.tk] })).json()
      .data;
    expectFigures(got, await expected([bizA], [installs.tk]));
    expect(got.install_ids).toEqual([installs.tk]);
  });

  it('gives the CSV of the same figures: a line per day, then the totals', async () => {
    const token = await c.token(c.seed.a.businessAdmin.email);
    const res = await c.api.get(
      token,
      `${URL}/export?from=${FROM}&to=${TO}&install_ids=${installs.la},${installs.tk}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain(`analytics-${FROM}-${TO}.csv`);
    const screen: TBusinessAnalytics = (
      await post({ from: FROM, to: TO, install_ids: [installs.la, installs.tk] })
    ).json().data;
    const lines = res.body
      .trim()
      .split(/\r?\n/)
      .map((l) => l.split(','));
    expect(lines[0]).toEqual(['day', ...ANALYTICS_COUNTERS, 'leads']);
    const body = lines.slice(1);
    expect(body).toHaveLength(13);
    const asLine = (day: string, x: TAnalyticsCounters) => [
      day,
      ...ANALYTICS_COUNTERS.map((k) => String(x[k])),
      String(x.leads_callback + x.leads_text + x.leads_booking + x.leads_form),
    ];
    expect(body).toEqual([...screen.days.map((d) => asLine(d.day, d)), asLine('total', screen.totals)]);
  });

  it('stays the same when the days are rebuilt again, and moves when a raw row changes', async () => {
    const before: TBusinessAnalytics = (await post({ from: FROM, to: TO })).json().data;
    await rows(
      c.t,
      `insert into analytics_dirty (business_id, install_id, day)
       select business_id, install_id, day from analytics_daily where business_id = $1 on conflict do nothing`,
      [bizA],
    );
    await sweep();
    expect((await post({ from: FROM, to: TO })).json().data).toEqual(before);
    // A missed callback of March 10 (New York) was in fact answered: updated like the engine does.
    const [call] = await rows(
      c.t,
      `update calls set outcome = 'completed', connected_at = requested_at + interval '3 seconds', duration = 30,
         updated_at = now()
       where id = (select id from calls where install_id = $1 and kind = 'callback' and outcome = 'missed'
                   and (requested_at at time zone 'America/New_York')::date between $2::date and $3::date
                   order by id limit 1)
       returning id`,
      [installs.ny, FROM, TO],
    );
    expect(call).toBeDefined();
    await sweep();
    const after: TBusinessAnalytics = (await post({ from: FROM, to: TO })).json().data;
    expect(after.totals.callbacks_missed).toBe(before.totals.callbacks_missed - 1);
    expect(after.totals.callbacks_answered).toBe(before.totals.callbacks_answered + 1);
    expectFigures(after, await expected([bizA], null));
  });

  it('takes a text in through its event at once, without waiting for the sweep', async () => {
    const before: TBusinessAnalytics = (await post({ from: FROM, to: TO })).json().data;
    const [contact] = await rows(c.t, 'select id from contacts where install_id = $1 limit 1', [installs.tk]);
    // Written with an old updated_at, so that only the event can bring it in.
    const [m] = await rows(
      c.t,
      `insert into messages (agency_id, business_id, contact_id, install_id, direction, body, status, from_number,
         to_number, sent_at, updated_at)
       values ($1, $2, $3, $4, 'in', 'STOP', 'received', '+1', '+2', '2026-03-07T03:00:00Z', '2000-01-01') returning id`,
      [agencyA, bizA, contact.id, installs.tk],
    );
    await c.t.app.deps.events.deliver(
      messageReceived.name,
      {
        messageId: m.id,
        agencyId: agencyA,
        businessId: bizA,
        contactId: contact.id,
        installId: installs.tk,
        newContact: false,
        keyword: null,
        body: 'STOP',
      },
      { tenant: { level: 'platform' }, by: { kind: 'system', source: 'carrier', name: 'test' } },
    );
    await expect
      .poll(async () => (await post({ from: FROM, to: TO })).json().data.totals.texts_in, { timeout: 10_000 })
      .toBe(before.totals.texts_in + 1);
  });

  it("moves an install's rows to their new local days when its time zone changes", async () => {
    // The raw rows are old news to the sweep: only the install's change can move them.
    for (const table of ['calls', 'messages'])
      await rows(c.t, `update ${table} set updated_at = '2000-01-01' where business_id = $1`, [bizA]);
    await sweep();
    const token = await c.token(c.seed.a.businessAdmin.email);
    const res = await c.api.put(token, `/api/v1/installs/${installs.la}`, {
      settings: { timezone: 'Pacific/Auckland' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await sweep();
    const got: TBusinessAnalytics = (await post({ from: FROM, to: TO })).json().data;
    expectFigures(got, await expected([bizA], null));
    // The first install's zone is also the zone of the rows of no install.
    const none = await rows(
      c.t,
      `select count(*)::int as n from messages where business_id = $1 and install_id is null and direction = 'in'
         and (sent_at at time zone 'Pacific/Auckland')::date between $2::date and $3::date`,
      [bizA, FROM, TO],
    );
    expect(none[0].n).toBeGreaterThan(0);
  });

  it('refuses bad ranges and installs of other businesses, changing nothing', async () => {
    const snap = await rows(c.t, 'select count(*)::int as n from analytics_daily');
    expect422(await post({ from: '2026-02-30', to: TO }), 'from', 'Enter a date as YYYY-MM-DD.');
    expect422(await post({ from: TO, to: FROM }), 'to', 'The end date must be on or after the start date.');
    expect422(
      await post({ from: '2025-01-01', to: '2026-01-02' }),
      'to',
      'Choose a range of at most 366 days.',
    );
    expect422(
      await post({ from: FROM, to: TO, install_ids: [installs.b] }),
      'install_ids',
      "One of the chosen installs is not this business's.",
    );
    const token = await c.token(c.seed.a.businessAdmin.email);
    expect422(
      await c.api.get(token, `${URL}/export?from=${FROM}&to=${TO}&install_ids=1;2`),
      'install_ids',
      'The installs must be a list of ids separated by commas.',
    );
    expect(await rows(c.t, 'select count(*)::int as n from analytics_daily')).toEqual(snap);
  });

  it('is for the business: agency users and other businesses read nothing of it', async () => {
    expect((await post({ from: FROM, to: TO }, c.seed.a.agencyAdmin.email)).statusCode).toBe(403);
    const other: TBusinessAnalytics = (
      await post({ from: FROM, to: TO }, c.seed.b.businessAdmin.email)
    ).json().data;
    expectFigures(other, await expected([c.seed.b.business.id], null));
    expect(other.installs.map((i) => i.id)).toEqual([installs.b]);
  });
});

describe('the agency dashboard', () => {
  const AGENCY_URL = '/api/v1/agency/business/analytics';
  it("sums its businesses' figures, ranks them, and shows their usage against their caps", async () => {
    await rows(
      c.t,
      'update businesses set number_of_calls = 180, calls = 200, number_of_messages = 5, messages = 0 where id = $1',
      [bizA2],
    );
    const res = await c.api.post(await c.token(c.seed.a.agencyAdmin.email), AGENCY_URL, {
      from: FROM,
      to: TO,
    });
    expect(res.statusCode, res.body).toBe(200);
    const got = res.json().data;
    const wantA = await expected([bizA], null);
    const wantBoth = await expected([bizA, bizA2], null);
    expectFigures(got, wantBoth);
    const ranked = got.businesses.map((b: { business_id: number }) => b.business_id);
    expect(ranked.sort()).toEqual([bizA, bizA2].sort());
    const a = got.businesses.find((b: { business_id: number }) => b.business_id === bizA);
    const sumA = zero();
    for (const d of wantA.days.values()) for (const k of ANALYTICS_COUNTERS) sumA[k] += d[k];
    expect(a).toMatchObject(sumA);
    const leads = got.businesses.map((b: { leads: number }) => b.leads);
    expect(leads).toEqual([...leads].sort((x: number, y: number) => y - x));
    const a2 = got.businesses.find((b: { business_id: number }) => b.business_id === bizA2);
    expect(a2).toMatchObject({ calls_used: 180, calls_cap: 200, messages_used: 5, messages_cap: null });
    expect(got.near_limit).toBeGreaterThanOrEqual(1);
  });

  it('refuses a business of another agency and business users', async () => {
    const token = await c.token(c.seed.a.agencyAdmin.email);
    expect422(
      await c.api.post(token, AGENCY_URL, { from: FROM, to: TO, business_ids: [c.seed.b.business.id] }),
      'business_ids',
      "One of the chosen businesses is not this agency's.",
    );
    const biz = await c.token(c.seed.a.businessAdmin.email);
    expect((await c.api.post(biz, AGENCY_URL, { from: FROM, to: TO })).statusCode).toBe(403);
  });
});
