// The time triggers (ADR 069): birthday and anniversary (each day at the automation's hour in the
// business's time zone, the contacts whose day it is there) and date (at a fixed moment, the contacts
// with any of the automation's tags, or all). Jobs on a cron call `runDateTriggers`; tests call it with
// the moment they choose. Nothing is recorded beside the runs: each entry's key (`birthday-<year>`,
// `date-<at>`) makes it once, so a job that runs twice, or late, or in two processes enters nobody twice.
import type { TTriggerKind } from '@stn/contracts/automations';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { engineNow } from '../../platform/engine-clock.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { type Ctx, platformOnly, platformSystemContext } from '../../platform/tenancy/context.ts';
import { businessTimeZone } from '../businesses/service.ts';
import { contactIdsOnDay, contactIdsWithAnyTag } from '../contacts/service.ts';
import {
  enterEach,
  type TriggerAutomation,
  triggerColumns,
  triggerConfig,
  triggerContext,
} from './matching.ts';
import { automationRuns, automations } from './tables.ts';

export const DATE_KINDS = ['birthday', 'anniversary', 'date'] as const;
type DateKind = (typeof DATE_KINDS)[number];

/** A date trigger's moment counts for a day: a date older than that (a worker down longer) is let go. */
export const DATE_GRACE_MS = 86_400_000;
/** Contacts entered per transaction (a date trigger on every contact of a large business). */
const CHUNK = 500;

/** The year, day (MM-DD) and hour at `now` in `timeZone` (UTC when the zone is unknown). */
export function localTime(now: Date, timeZone: string): { year: number; monthDay: string; hour: number } {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
  } catch {
    return localTime(now, 'UTC');
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    year: Number(part('year')),
    monthDay: `${part('month')}-${part('day')}`,
    hour: Number(part('hour')),
  };
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** The days (MM-DD) whose contacts celebrate on `monthDay`: 29 February falls on the 28th in other years. */
export function celebratedDays(year: number, monthDay: string): string[] {
  return monthDay === '02-28' && !isLeap(year) ? ['02-28', '02-29'] : [monthDay];
}

/**
 * Enters the contacts whose time has come at `now` into the active birthday, anniversary and date
 * automations (`kinds`: some of them). A birthday automation takes the contacts whose birthday is today in
 * the business's time zone once it is `hour` or later there (a job that ran late still enters them that
 * day); a date automation its contacts once `at` has passed, for a day. Answers the runs started.
 */
export async function runDateTriggers(
  ctx: Ctx,
  now: Date,
  kinds: readonly DateKind[] = DATE_KINDS,
): Promise<number> {
  platformOnly(ctx);
  const { deps } = ctx;
  const rows = await ctx.db
    .select(triggerColumns)
    .from(automations)
    .where(
      and(
        inArray(automations.start_trigger, [...kinds]),
        eq(automations.active, true),
        isNull(automations.deleted_at),
      ),
    )
    .orderBy(automations.business_id, automations.id);
  const byBusiness = new Map<number, typeof rows>();
  for (const r of rows) byBusiness.set(r.businessId, [...(byBusiness.get(r.businessId) ?? []), r]);
  let started = 0;
  for (const list of byBusiness.values()) {
    const first = list[0];
    if (!first) continue;
    const bctx = triggerContext(first, deps, 'date triggers');
    try {
      const zone = list.some((a) => a.kind !== 'date') ? await businessTimeZone(bctx) : 'UTC';
      for (const a of list) started += await enterDue(bctx, a.kind as DateKind, a, now, zone);
    } catch (err) {
      deps.log.error({ err, businessId: first.businessId }, 'automation date triggers failed');
    }
  }
  return started;
}

async function enterDue(
  ctx: Ctx,
  kind: DateKind,
  a: TriggerAutomation,
  now: Date,
  zone: string,
): Promise<number> {
  let entryKey: string;
  let contactIds: number[];
  if (kind === 'date') {
    const config = triggerConfig('date', a.trigger);
    const at = config ? Date.parse(config.at) : Number.NaN;
    if (!config || Number.isNaN(at) || at > now.getTime() || now.getTime() - at > DATE_GRACE_MS) return 0;
    entryKey = `date-${config.at}`;
    contactIds = await contactIdsWithAnyTag(ctx, a.tags);
  } else {
    const config = triggerConfig(kind, a.trigger);
    const local = localTime(now, zone);
    if (!config || local.hour < config.hour) return 0;
    entryKey = `${kind}-${local.year}`;
    contactIds = await contactIdsOnDay(ctx, {
      field: kind,
      monthDays: celebratedDays(local.year, local.monthDay),
    });
  }
  const pending = await notEntered(ctx, a.id, entryKey, contactIds);
  let started = 0;
  for (let i = 0; i < pending.length; i += CHUNK) {
    const entries = pending.slice(i, i + CHUNK).map((contactId) => ({
      contactId,
      entryKey,
      data: { [kind === 'date' ? 'at' : 'year']: entryKey.slice(kind.length + 1) },
    }));
    started += (await enterEach(ctx, [a], kind as TTriggerKind, entries)).length;
  }
  return started;
}

/** Of these contacts, those with no run of the automation under this key yet (the job's repeats skip). */
async function notEntered(ctx: Ctx, automationId: number, entryKey: string, contactIds: number[]) {
  if (contactIds.length === 0) return [];
  const done = await ctx.db
    .select({ contactId: automationRuns.contact_id })
    .from(automationRuns)
    .where(and(eq(automationRuns.automation_id, automationId), eq(automationRuns.entry_key, entryKey)));
  const entered = new Set(done.map((r) => r.contactId));
  return contactIds.filter((id) => !entered.has(id));
}

/** A cron job entering the contacts of `kinds` whose time has come, on the engine's clock. */
const timeJob = (name: string, cron: string, kinds: readonly DateKind[]) =>
  defineJob({
    name,
    payload: z.object({}).passthrough(),
    // A failed run is not retried: the next one (a minute or a quarter hour later) does its work.
    retry: { limit: 0, delaySeconds: 60, backoff: false },
    cron,
    handler: async (deps) => {
      const ctx = platformSystemContext(deps, 'job', name);
      await runDateTriggers(ctx, new Date(engineNow(ctx)), kinds);
    },
  });

/** Every minute: the date triggers whose moment has come. */
export const dateTriggersJob = timeJob('automations.date_triggers', '* * * * *', ['date']);

/**
 * Every quarter of an hour (time zones' hours start at :00, :30 or :45 UTC): the birthdays and
 * anniversaries whose hour has come in their business's time zone.
 */
export const dayTriggersJob = timeJob('automations.day_triggers', '*/15 * * * *', [
  'birthday',
  'anniversary',
]);
