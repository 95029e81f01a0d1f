// Report e-mails (issue 24, ADR 084): a business's `report_emails` get a summary of the previous day, week
// (Monday..Sunday) or calendar month, as its `report_schedules` ask, at 07:00 in the business's time zone
// (its first install's, as the rollups' install 0). A per-minute job sends every report whose due time has
// passed and that was not sent yet; only the latest period of each schedule is caught up, so a worker that
// was down for a week sends one daily report, not seven. The run row and the outbox rows are written in one
// transaction: a retried or concurrent job never sends a period twice.
import { leadsOf, type TBusinessAnalytics } from '@stn/contracts/analytics';
import { REPORT_SCHEDULES } from '@stn/contracts/businesses';
import { translate } from '@stn/contracts/i18n';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { engineNow } from '../../platform/engine-clock.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import {
  type Ctx,
  inTransaction,
  platformSystemContext,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { businessAnalytics, businessAnalyticsCsv, rebuildDirty } from './service.ts';

type TReportSchedule = (typeof REPORT_SCHEDULES)[number];
/** The local hour at which a period's report is due (on the day after it ends). */
export const REPORT_HOUR = 7;

type Lang = 'en' | 'es' | 'br';
const LANGS: readonly Lang[] = ['en', 'es', 'br'];
const LOCALES: Record<Lang, string> = { en: 'en-US', es: 'es-ES', br: 'pt-BR' };
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

const shift = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The latest period of a schedule whose report is due at a local wall time (its date and hour): the day
 * before; the Monday..Sunday before the latest Monday; the calendar month before the latest 1st. Before
 * 07:00 the reference day is yesterday, so the period is the one before.
 */
export function duePeriod(
  schedule: TReportSchedule,
  localDay: string,
  localHour: number,
): { from: string; to: string } {
  const ref = localHour >= REPORT_HOUR ? localDay : shift(localDay, -1);
  if (schedule === 'daily') {
    const d = shift(ref, -1);
    return { from: d, to: d };
  }
  if (schedule === 'weekly') {
    const dow = new Date(`${ref}T00:00:00Z`).getUTCDay();
    const monday = shift(ref, -((dow + 6) % 7));
    return { from: shift(monday, -7), to: shift(monday, -1) };
  }
  const to = shift(`${ref.slice(0, 8)}01`, -1);
  return { from: `${to.slice(0, 8)}01`, to };
}

type Due = {
  businessId: number;
  agencyId: number;
  name: string;
  emails: string[];
  language: Lang;
  timezone: string;
  schedule: TReportSchedule;
  from: string;
  to: string;
};

/** The reports due at `now` (ms) and not sent yet. */
export async function dueReports(ctx: Ctx, now: number): Promise<Due[]> {
  const at = sql`to_timestamp(${now / 1000}::double precision)`;
  const { rows } = await ctx.db.execute<{
    id: number;
    agency_id: number;
    name: string;
    report_emails: unknown;
    report_schedules: unknown;
    tz: string;
    local_day: string;
    local_hour: number;
    language: string | null;
  }>(sql`select b.id, b.agency_id, b.name, b.report_emails, b.report_schedules, z.tz,
      to_char(${at} at time zone z.tz, 'YYYY-MM-DD') as local_day,
      extract(hour from ${at} at time zone z.tz)::int as local_hour,
      (select i.settings->>'language' from installs i where i.business_id = b.id order by i.id limit 1)
        as language
    from businesses b
    cross join lateral (select analytics_tz(b.id, 0) as tz) z
    where b.deleted_at is null and b.status <> 'deleted'
      and jsonb_typeof(b.report_emails) = 'array' and jsonb_array_length(b.report_emails) > 0
      and jsonb_typeof(b.report_schedules) = 'array' and jsonb_array_length(b.report_schedules) > 0
    order by b.id`);
  const candidates: Due[] = [];
  for (const b of rows) {
    const emails = (Array.isArray(b.report_emails) ? b.report_emails : [])
      .map((e) => String(e).trim())
      .filter((e) => EMAIL.test(e));
    if (emails.length === 0) continue;
    const language = LANGS.includes(b.language as Lang) ? (b.language as Lang) : 'en';
    const schedules = new Set(Array.isArray(b.report_schedules) ? b.report_schedules : []);
    for (const schedule of REPORT_SCHEDULES) {
      if (!schedules.has(schedule)) continue;
      candidates.push({
        businessId: Number(b.id),
        agencyId: Number(b.agency_id),
        name: b.name,
        emails: [...new Set(emails)],
        language,
        timezone: b.tz,
        schedule,
        ...duePeriod(schedule, b.local_day, Number(b.local_hour)),
      });
    }
  }
  if (candidates.length === 0) return [];
  const { rows: sent } = await ctx.db.execute<{ business_id: number; schedule: string; period_from: string }>(
    sql`select business_id, schedule, period_from::text as period_from from analytics_report_runs
        where business_id = any(${sql.param([...new Set(candidates.map((c) => c.businessId))])}::int[])
          and period_from >= ${candidates.reduce((m, c) => (c.from < m ? c.from : m), candidates[0]?.from ?? '')}::date`,
  );
  const done = new Set(sent.map((r) => `${r.business_id}/${r.schedule}/${r.period_from}`));
  return candidates.filter((c) => !done.has(`${c.businessId}/${c.schedule}/${c.from}`));
}

const escapeHtml = (v: unknown) =>
  String(v).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function periodText(lang: Lang, from: string, to: string): string {
  const fmt = new Intl.DateTimeFormat(LOCALES[lang], { dateStyle: 'medium', timeZone: 'UTC' });
  const day = (d: string) => fmt.format(new Date(`${d}T00:00:00Z`));
  return from === to ? day(from) : `${day(from)} – ${day(to)}`;
}

/** The rows of the summary: a label and its value, as text. */
function figureRows(a: TBusinessAnalytics, lang: Lang): [string, string][] {
  const t = (key: string, params?: Record<string, string | number>) =>
    translate(`analytics.${key}`, lang, params);
  const num = new Intl.NumberFormat(LOCALES[lang]);
  const seconds = (s: number | null) =>
    s === null ? t('report_no_value') : t('report_seconds', { seconds: num.format(s) });
  const c = a.totals;
  return [
    [t('report_callbacks_requested'), num.format(c.callbacks_requested)],
    [t('report_callbacks_answered'), num.format(c.callbacks_answered)],
    [t('report_callbacks_missed'), num.format(c.callbacks_missed)],
    [t('report_connect_median'), seconds(a.connect.median)],
    [t('report_connect_p90'), seconds(a.connect.p90)],
    [t('report_texts_in'), num.format(c.texts_in)],
    [t('report_texts_out'), num.format(c.texts_out)],
    [t('report_conversations_started'), num.format(c.conversations_started)],
    [t('report_opt_outs'), num.format(c.opt_outs)],
    [t('report_leads'), num.format(leadsOf(c))],
    [t('report_leads_callback'), num.format(c.leads_callback)],
    [t('report_leads_text'), num.format(c.leads_text)],
    [t('report_leads_booking'), num.format(c.leads_booking)],
    [t('report_leads_form'), num.format(c.leads_form)],
  ];
}

/** The mail of one report: subject, HTML (every value escaped), plain text. */
export function renderReport(due: Due, a: TBusinessAnalytics) {
  const lang = due.language;
  const period = periodText(lang, due.from, due.to);
  const params = { business: due.name, period, timezone: due.timezone };
  const t = (key: string) => translate(`analytics.${key}`, lang, params);
  const subject = t(`report_subject_${due.schedule}`).replace(/\p{Cc}+/gu, ' ');
  const rows = figureRows(a, lang);
  const cell = 'padding:6px 12px;border-bottom:1px solid #e5e7eb;';
  const html = [
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f9fafb;font-family:Arial,Helvetica,sans-serif;color:#111827;">',
    `<h1 style="font-size:20px;margin:0 0 12px;">${escapeHtml(subject)}</h1>`,
    `<p style="margin:0 0 16px;">${escapeHtml(t('report_intro'))}</p>`,
    '<table role="presentation" cellspacing="0" cellpadding="0" style="border-collapse:collapse;background:#ffffff;border:1px solid #e5e7eb;">',
    `<tr><th style="${cell}text-align:left;">${escapeHtml(t('report_figure'))}</th><th style="${cell}text-align:right;">${escapeHtml(t('report_value'))}</th></tr>`,
    ...rows.map(
      ([label, value]) =>
        `<tr><td style="${cell}text-align:left;">${escapeHtml(label)}</td><td style="${cell}text-align:right;">${escapeHtml(value)}</td></tr>`,
    ),
    '</table>',
    `<p style="margin:16px 0 0;color:#6b7280;">${escapeHtml(t('report_attachment'))}</p>`,
    '</body></html>',
  ].join('\n');
  const text = [
    subject,
    '',
    t('report_intro'),
    '',
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    t('report_attachment'),
  ].join('\n');
  return { subject, html, text };
}

/**
 * Sends one report if its period was not sent yet: the run row and the outbox rows in one transaction (the
 * insert waits on a concurrent one's and then finds the row). Answers whether it sent.
 */
async function sendReport(system: Ctx, due: Due): Promise<boolean> {
  const deps = system.deps;
  const ctx = tenantContext(
    deps,
    { level: 'business', agencyId: due.agencyId, businessId: due.businessId },
    { kind: 'system', source: 'job', name: 'analytics report' },
  );
  // The figures are read before the transaction (on the pool: the dashboard's queries run side by side);
  // a concurrent run may read them too, but only the one whose run row goes in sends.
  const range = { from: due.from, to: due.to };
  const [figures, { csv, filename }] = await Promise.all([
    businessAnalytics(ctx, range),
    businessAnalyticsCsv(ctx, range),
  ]);
  const mail = renderReport(due, figures);
  return inTransaction(ctx, async (tx) => {
    const { rows } = await tx.db.execute<{ business_id: number }>(
      sql`insert into analytics_report_runs (business_id, schedule, period_from, period_to, recipients)
          values (${due.businessId}, ${due.schedule}, ${due.from}::date, ${due.to}::date, ${due.emails.length})
          on conflict do nothing returning business_id`,
    );
    if (rows.length === 0) return false;
    for (const to of due.emails)
      await deps.mailer.send(
        {
          to,
          ...mail,
          attachments: [{ filename, content: csv, contentType: 'text/csv; charset=utf-8' }],
          agencyId: due.agencyId,
          businessId: due.businessId,
          fromName: due.name,
        },
        tx.db as Tx,
      );
    return true;
  });
}

/**
 * Sends every report due now (the engines' clock) and not sent yet; answers how many. Marked days are
 * rebuilt first, so a report counts what happened up to its end. A report that fails is logged and left for
 * the next minute.
 */
export async function sendDueReports(ctx: Ctx): Promise<number> {
  const due = await dueReports(ctx, engineNow(ctx));
  if (due.length === 0) return 0;
  await rebuildDirty(ctx);
  let sent = 0;
  for (const d of due) {
    try {
      if (await sendReport(ctx, d)) sent++;
    } catch (err) {
      ctx.deps.log.error(
        { err, businessId: d.businessId, schedule: d.schedule, from: d.from },
        'analytics report not sent',
      );
    }
  }
  return sent;
}

export const analyticsReportsJob = defineJob({
  name: 'analytics.reports',
  payload: z.object({}).passthrough(),
  retry: { limit: 0, delaySeconds: 30, backoff: false },
  cron: '* * * * *',
  async handler(deps: Deps) {
    await sendDueReports(platformSystemContext(deps, 'job', 'analytics reports'));
  },
});
