// Entering an automation (ADR 068): the one statement that starts journeys, for the triggers (ADR 069),
// the contacts' automation calls and AddToAutomation.
import type { TTriggerKind } from '@stn/contracts/automations';
import { sql } from 'drizzle-orm';
import { engineNow } from '../../platform/engine-clock.ts';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { notifyRunners, wakeRunner } from './wake.ts';

/** One contact entering: `entryKey` makes it idempotent (the same call or day enters once). */
export type Entry = { contactId: number; entryKey: string; data?: Record<string, unknown> };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Starts a journey for each entry in the context's transaction (the business's), where the automation is
 * active and its re-entry rule lets the contact in; answers the ids of the runs started, in the entries'
 * order. The first step is due at once and the local worker is woken after commit (the others by NOTIFY).
 *
 * Skipped, silently: an automation not active or deleted or without a first block; `reentry: never` and
 * the contact had a run; a run of the contact in progress (whatever the rule: one journey at a time); an
 * entry key already used. One statement for all entries (10,000 at once).
 */
export async function enterContacts(
  ctx: Ctx,
  input: { automationId: number; trigger: TTriggerKind; entries: Entry[] },
): Promise<number[]> {
  const { businessId } = businessOf(ctx);
  if (input.entries.length === 0) return [];
  const now = iso(engineNow(ctx));
  const e = input.entries;
  const res = await ctx.db.execute<{ run_id: string; contact_id: number }>(sql`
    with a as (
      select au.id, au.agency_id, au.business_id, au.version, au.options->>'reentry' as reentry,
             au.trigger->>'start' as start,
             (select b->>'type' from jsonb_array_elements(au.blocks) b where b->>'id' = au.trigger->>'start') as type
        from automations au
       where au.id = ${input.automationId} and au.business_id = ${businessId}
         and au.active and au.deleted_at is null),
    e as (
      select distinct on (contact_id) contact_id, entry_key, data::jsonb as data
        from unnest(${sql.param(e.map((x) => x.contactId))}::int[], ${sql.param(e.map((x) => x.entryKey))}::text[],
                    ${sql.param(e.map((x) => JSON.stringify(x.data ?? {})))}::text[]) as e(contact_id, entry_key, data)),
    runs as (
      insert into automation_runs (agency_id, business_id, automation_id, contact_id, status, trigger, trigger_data,
                                   entry_key, current_block, version)
      select a.agency_id, a.business_id, a.id, e.contact_id, 'active', ${input.trigger}, e.data, e.entry_key,
             a.start, a.version
        from a cross join e
       where a.type is not null
         and not exists (select 1 from automation_runs r
                          where r.automation_id = a.id and r.contact_id = e.contact_id
                            and (r.status in ('active', 'waiting') or a.reentry = 'never'))
      on conflict do nothing
      returning id, agency_id, business_id, automation_id, contact_id, current_block),
    steps as (
      insert into automation_steps (run_id, business_id, automation_id, seq, block_id, type, status, due_at)
      select runs.id, runs.business_id, runs.automation_id, 1, runs.current_block, a.type, 'pending', ${now}::timestamptz
        from runs cross join a
      returning run_id)
    select runs.id as run_id, runs.contact_id from runs join steps on steps.run_id = runs.id`);
  // In the entries' order.
  const byContact = new Map(res.rows.map((r) => [Number(r.contact_id), Number(r.run_id)]));
  const ids = [...new Set(e.map((x) => x.contactId))]
    .map((c) => byContact.get(c))
    .filter((id): id is number => id !== undefined);
  if (ids.length) {
    await notifyRunners(ctx);
    ctx.afterCommit(() => wakeRunner(ctx));
  }
  return ids;
}
