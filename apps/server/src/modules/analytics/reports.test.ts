// Report e-mails (ADR 084) on the sandbox's ManualClock: a business in Pacific/Auckland (UTC+12 in June)
// with daily, weekly and monthly reports gets each at 07:00 local time for the previous period, once, with
// the export's CSV attached; before 07:00 nothing goes; after downtime only the latest period is caught up;
// a business with no report address gets nothing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  drainJobs,
  login,
  type Seed,
  seedTenants,
  type TestApp,
} from '../../../test/helpers.ts';
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import { platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import { analyticsReportsJob, duePeriod, renderReport, sendDueReports } from './reports.ts';
import { callDays, markDays, messageDays } from './rollup.ts';
import { businessAnalytics } from './service.ts';

const TZ = 'Pacific/Auckland';
/** A local wall time in Auckland (NZST, UTC+12, in June and July 2026) as an instant. */
const local = (isoLocal: string) => Date.parse(`${isoLocal}+12:00`);

// Sunday 28 June 2026, 06:59 in Auckland (Saturday 18:59 UTC).
const clock = new ManualClock(local('2026-06-28T06:59:00'));
let t: TestApp;
let seed: Seed;
let token: string;
let installId: number;
const ctx = () => platformSystemContext(t.app.deps, 'job', 'reports test');

type Mail = {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: { filename: string; content: string; contentType: string }[];
  business_id: number | null;
};
const reports = async (): Promise<Mail[]> =>
  (
    await t.pool.query(
      `select id, "to", subject, text, html, attachments, business_id from mail_outbox
        where subject like '%report for%' order by id`,
    )
  ).rows;
const runs = async () =>
  (
    await t.pool.query(
      `select schedule, period_from::text as "from", period_to::text as "to" from analytics_report_runs
        where business_id = $1 order by sent_at, schedule`,
      [seed.a.business.id],
    )
  ).rows;

/** Moves the manual clock to a local Auckland time. */
async function moveTo(isoLocal: string) {
  const target = local(isoLocal);
  expect(target).toBeGreaterThanOrEqual(clock.now());
  if (target > clock.now()) await clock.advance(target - clock.now());
  expect(clock.now()).toBe(target);
}

/** The value cell next to a label in the report's HTML table. */
function cellOf(html: string, label: string): string | undefined {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return html.match(new RegExp(`>${escaped}</td><td[^>]*>([^<]*)</td>`))?.[1];
}

beforeAll(async () => {
  t = await createTestApp({}, { sandboxClock: clock });
  seed = await seedTenants(t.db);
  await t.pool.query(`update businesses set name = 'Smith & <Sons>' where id = $1`, [seed.a.business.id]);
  const { rows } = await t.pool.query(
    `insert into installs (agency_id, business_id, key, name, settings)
     values ($1, $2, 'report-key-a', 'Shop', $3), ($4, $5, 'report-key-b', 'Other', $3) returning id`,
    [
      seed.a.agency.id,
      seed.a.business.id,
      JSON.stringify({ timezone: TZ, language: 'en' }),
      seed.b.agency.id,
      seed.b.business.id,
    ],
  );
  installId = rows[0].id;
  token = await login(t.app, seed.a.businessAdmin.email);
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/v1/businesses/report',
    headers: bearer(token),
    payload: {
      report_emails: ['boss@shop.test', 'ops@shop.test'],
      report_schedules: ['daily', 'weekly', 'monthly'],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  // Business B asks for daily reports but gives no address.
  await t.pool.query(`update businesses set report_schedules = '["daily"]' where id = $1`, [
    seed.b.business.id,
  ]);
});
afterAll(() => t?.close());

describe('the due period', () => {
  it('is the day, Monday..Sunday or month before, from 07:00 local', () => {
    expect(duePeriod('daily', '2026-06-28', 6)).toEqual({ from: '2026-06-26', to: '2026-06-26' });
    expect(duePeriod('daily', '2026-06-28', 7)).toEqual({ from: '2026-06-27', to: '2026-06-27' });
    expect(duePeriod('weekly', '2026-06-29', 6)).toEqual({ from: '2026-06-15', to: '2026-06-21' });
    expect(duePeriod('weekly', '2026-06-29', 7)).toEqual({ from: '2026-06-22', to: '2026-06-28' });
    expect(duePeriod('weekly', '2026-07-01', 12)).toEqual({ from: '2026-06-22', to: '2026-06-28' });
    expect(duePeriod('monthly', '2026-07-01', 6)).toEqual({ from: '2026-05-01', to: '2026-05-31' });
    expect(duePeriod('monthly', '2026-07-01', 7)).toEqual({ from: '2026-06-01', to: '2026-06-30' });
    expect(duePeriod('monthly', '2026-01-01', 7)).toEqual({ from: '2025-12-01', to: '2025-12-31' });
  });
});

describe('the mail', () => {
  it("speaks the install's language", async () => {
    const ctx = tenantContext(
      t.app.deps,
      { level: 'business', agencyId: seed.a.agency.id, businessId: seed.a.business.id },
      { kind: 'system', source: 'job', name: 'reports test' },
    );
    const figures = await businessAnalytics(ctx, { from: '2026-06-01', to: '2026-06-30' });
    const due = {
      businessId: seed.a.business.id,
      agencyId: seed.a.agency.id,
      name: 'Tienda',
      emails: ['jefe@tienda.test'],
      timezone: TZ,
      schedule: 'monthly' as const,
      from: '2026-06-01',
      to: '2026-06-30',
    };
    const es = renderReport({ ...due, language: 'es' }, figures);
    expect(es.subject).toMatch(/^Tienda: tu informe mensual del 1 jun 2026 – 30 jun 2026$/);
    expect(es.text).toContain('Devoluciones de llamada solicitadas: 0');
    expect(es.html).toContain('Mediana del tiempo de conexión');
    const br = renderReport({ ...due, language: 'br' }, figures);
    expect(br.subject).toMatch(/^Tienda: seu relatório mensal de /);
  });
});

describe('report e-mails', () => {
  it('catches up only the latest period of each schedule', async () => {
    await sendDueReports(ctx());
    expect(await runs()).toEqual(
      expect.arrayContaining([
        { schedule: 'daily', from: '2026-06-26', to: '2026-06-26' },
        { schedule: 'weekly', from: '2026-06-15', to: '2026-06-21' },
        { schedule: 'monthly', from: '2026-05-01', to: '2026-05-31' },
      ]),
    );
    expect(await runs()).toHaveLength(3);
    expect(await reports()).toHaveLength(6);
    expect((await reports()).every((m) => m.business_id === seed.a.business.id)).toBe(true);
  });

  it('sends nothing before 07:00 local, then yesterday once at 07:00 with the export attached', async () => {
    // Saturday 27 June, local: two callbacks answered (5 s and 12 s to connect, one at 23:30 local, which
    // is still the 27th there), one missed; two texts in, one out. A callback at 00:30 on the 28th is not
    // the 27th's. Nothing rebuilt yet: the days are only marked, as an event marks them.
    const a = seed.a;
    const call = (at: string, connectSeconds: number | null, outcome: string) =>
      t.pool.query(
        `insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, requested_at,
           connected_at, duration)
         values ($1, $2, $3, 'callback', $4, '+14155550100', $5::timestamptz,
           $5::timestamptz + make_interval(secs => $6::int), $7)`,
        [
          a.agency.id,
          a.business.id,
          installId,
          outcome,
          new Date(local(at)),
          connectSeconds,
          connectSeconds ? 60 : null,
        ],
      );
    await call('2026-06-27T10:00:00', 12, 'completed');
    await call('2026-06-27T23:30:00', 5, 'completed');
    await t.pool.query(
      `insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, requested_at)
       values ($1, $2, $3, 'callback', 'missed', '+14155550101', $4), ($1, $2, $3, 'callback', 'missed', '+14155550102', $5)`,
      [
        a.agency.id,
        a.business.id,
        installId,
        new Date(local('2026-06-27T12:00:00')),
        new Date(local('2026-06-28T00:30:00')),
      ],
    );
    const { rows: contacts } = await t.pool.query(
      `insert into contacts (agency_id, business_id, install_id, phone) values ($1, $2, $3, '+14155550100')
       returning id`,
      [a.agency.id, a.business.id, installId],
    );
    const msg = (direction: 'in' | 'out', at: string) =>
      t.pool.query(
        `insert into messages (agency_id, business_id, contact_id, install_id, direction, status, from_number,
           to_number, sent_at)
         values ($1, $2, $3, $4, $5, $6, '+14155550100', '+15005550006', $7)`,
        [
          a.agency.id,
          a.business.id,
          contacts[0].id,
          installId,
          direction,
          direction === 'in' ? 'received' : 'sent',
          new Date(local(at)),
        ],
      );
    await msg('in', '2026-06-27T09:00:00');
    await msg('out', '2026-06-27T09:05:00');
    await msg('in', '2026-06-27T09:10:00');
    await markDays(ctx(), callDays(sql`business_id = ${a.business.id}`));
    await markDays(ctx(), messageDays(sql`business_id = ${a.business.id}`));

    const before = (await reports()).length;
    await moveTo('2026-06-28T06:59:59');
    await sendDueReports(ctx());
    await sendDueReports(ctx());
    expect(await reports()).toHaveLength(before);

    await moveTo('2026-06-28T07:00:00');
    await sendDueReports(ctx());
    await sendDueReports(ctx());
    // And the job itself, as the cron enqueues it.
    await t.app.deps.queue.send(t.db, analyticsReportsJob, {});
    await drainJobs(t);
    const sent = (await reports()).slice(before);
    expect(sent.map((m) => m.to).sort()).toEqual(['boss@shop.test', 'ops@shop.test']);
    const [mail] = sent;
    if (!mail) throw new Error('no report');
    expect(mail.subject).toBe('Smith & <Sons>: your daily report for Jun 27, 2026');
    expect(mail.business_id).toBe(seed.a.business.id);

    const exported = await t.app.inject({
      url: '/api/v1/business/analytics/export?from=2026-06-27&to=2026-06-27',
      headers: bearer(token),
    });
    expect(exported.statusCode, exported.body).toBe(200);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]?.filename).toBe('analytics-2026-06-27-2026-06-27.csv');
    expect(mail.attachments[0]?.contentType).toMatch(/^text\/csv/);
    expect(mail.attachments[0]?.content).toBe(exported.body);
    expect(exported.body).toMatch(/^day,callbacks_requested,/);

    const html = mail.html ?? '';
    expect(cellOf(html, 'Callbacks requested')).toBe('3');
    expect(cellOf(html, 'Callbacks answered')).toBe('2');
    expect(cellOf(html, 'Callbacks missed')).toBe('1');
    expect(cellOf(html, 'Median time to connect')).toBe('5 s');
    expect(cellOf(html, '90th percentile time to connect')).toBe('12 s');
    expect(cellOf(html, 'Texts received')).toBe('2');
    expect(cellOf(html, 'Texts sent')).toBe('1');
    expect(cellOf(html, 'Conversations started')).toBe('1');
    expect(cellOf(html, 'Leads from callbacks')).toBe('3');
    expect(cellOf(html, 'Leads from texts')).toBe('1');
    // Every value escaped: the business's name never reaches the HTML as markup.
    expect(html).toContain('Smith &amp; &lt;Sons&gt;');
    expect(html).not.toContain('<Sons>');
    expect(mail.text).toContain('Callbacks requested: 3');
    expect(mail.text).toContain('Median time to connect: 5 s');
  });

  it('sends the weekly report on Monday and the monthly one on the 1st', async () => {
    const count = async () => (await reports()).length;
    const subjects = async (from: number) => (await reports()).slice(from).map((m) => m.subject);

    let n = await count();
    await moveTo('2026-06-29T06:59:00');
    await sendDueReports(ctx());
    expect(await count()).toBe(n);
    await moveTo('2026-06-29T07:00:00');
    await sendDueReports(ctx());
    await sendDueReports(ctx());
    expect((await subjects(n)).sort()).toEqual([
      'Smith & <Sons>: your daily report for Jun 28, 2026',
      'Smith & <Sons>: your daily report for Jun 28, 2026',
      'Smith & <Sons>: your weekly report for Jun 22, 2026 – Jun 28, 2026',
      'Smith & <Sons>: your weekly report for Jun 22, 2026 – Jun 28, 2026',
    ]);
    const weekly = (await reports()).findLast((m) => m.subject.includes('weekly'));
    expect(weekly?.attachments[0]?.filename).toBe('analytics-2026-06-22-2026-06-28.csv');
    // The week holds Saturday's figures.
    expect(cellOf(weekly?.html ?? '', 'Callbacks requested')).toBe('4');

    await moveTo('2026-06-30T07:00:00');
    await sendDueReports(ctx());
    n = await count();
    await moveTo('2026-07-01T06:59:00');
    await sendDueReports(ctx());
    expect(await count()).toBe(n);
    await moveTo('2026-07-01T07:00:00');
    await sendDueReports(ctx());
    await sendDueReports(ctx());
    expect((await subjects(n)).sort()).toEqual([
      'Smith & <Sons>: your daily report for Jun 30, 2026',
      'Smith & <Sons>: your daily report for Jun 30, 2026',
      'Smith & <Sons>: your monthly report for Jun 1, 2026 – Jun 30, 2026',
      'Smith & <Sons>: your monthly report for Jun 1, 2026 – Jun 30, 2026',
    ]);
    const monthly = (await reports()).findLast((m) => m.subject.includes('monthly'));
    expect(monthly?.attachments[0]?.filename).toBe('analytics-2026-06-01-2026-06-30.csv');
    expect(cellOf(monthly?.html ?? '', 'Callbacks requested')).toBe('4');
  });

  it('sends nothing to a business without report addresses', async () => {
    const { rows } = await t.pool.query('select count(*)::int as n from mail_outbox where business_id = $1', [
      seed.b.business.id,
    ]);
    expect(rows[0].n).toBe(0);
    const { rows: r } = await t.pool.query(
      'select count(*)::int as n from analytics_report_runs where business_id = $1',
      [seed.b.business.id],
    );
    expect(r[0].n).toBe(0);
  });
});
