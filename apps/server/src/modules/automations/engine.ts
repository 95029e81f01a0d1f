// The automations engine (ADR 068): runs (one journey of one contact), their steps (the exactly-once job
// rows), the claim loop of the worker processes (runner.ts), waits, retries, and the run views (runs.ts).
// Triggers (ADR 069, triggers.ts) call `enterContacts`; the API (service.ts) calls `stopRun` and the views.
import type { TTriggerKind } from '@stn/contracts/automations';
import { sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { EventBus } from '../../platform/events/events.ts';
import type { Queue } from '../../platform/queue/queue.ts';
import { businessOf, type Ctx, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { messageNotice, messageReceived } from '../chats/service.ts';
import { engineNow } from './clock.ts';
import { CHANNEL, Runner, wakeRunner } from './runner.ts';

export { blockCounts, getRun, listRuns } from './runs.ts';

/** One contact entering: `entryKey` makes it idempotent (the same call or day enters once). */
export type Entry = { contactId: number; entryKey: string; data?: Record<string, unknown> };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Starts a journey for each entry in the context's transaction (the business's), where the automation is
 * active and its re-entry rule lets the contact in; answers the ids of the runs started. The first step is
 * due at once and the local worker is woken after commit (the others by NOTIFY).
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
  const res = await ctx.db.execute<{ run_id: string }>(sql`
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
      returning id, agency_id, business_id, automation_id, current_block)
    insert into automation_steps (run_id, business_id, automation_id, seq, block_id, type, status, due_at)
    select runs.id, runs.business_id, runs.automation_id, 1, runs.current_block, a.type, 'pending', ${now}::timestamptz
      from runs cross join a
    returning run_id`);
  const ids = res.rows.map((r) => Number(r.run_id));
  if (ids.length) {
    await ctx.db.execute(sql`select pg_notify(${CHANNEL}, '')`);
    ctx.afterCommit(() => wakeRunner(ctx));
  }
  return ids;
}

/** Stops the contact's journey in progress in the automation (its pending step is cancelled). */
export async function stopRun(
  ctx: Ctx,
  input: { automationId: number; contactId: number },
): Promise<boolean> {
  const { businessId } = businessOf(ctx);
  return inTransaction(ctx, async (tx) => {
    const res = await tx.db.execute<{ id: string }>(sql`
      update automation_runs set status = 'stopped', finished_at = ${iso(engineNow(ctx))}::timestamptz,
             updated_at = now()
       where automation_id = ${input.automationId} and contact_id = ${input.contactId}
         and business_id = ${businessId} and status in ('active', 'waiting')
      returning id`);
    const ids = res.rows.map((r) => Number(r.id));
    if (ids.length === 0) return false;
    await tx.db.execute(sql`
      update automation_steps set status = 'skipped', finished_at = ${iso(engineNow(ctx))}::timestamptz
       where run_id = any(${sql.param(ids)}::bigint[]) and status in ('pending', 'waiting')`);
    return true;
  });
}

/**
 * An inbound text of a contact wakes its waiting CollectContactData steps (those that wait for an answer):
 * each is due now (still waiting: the wake is no new attempt), with the text as its answer.
 */
export async function wakeOnAnswer(ctx: Ctx, input: { contactId: number; body: string }): Promise<number> {
  const { businessId } = businessOf(ctx);
  const res = await ctx.db.execute(sql`
    update automation_steps s set answer = ${input.body},
           due_at = ${iso(engineNow(ctx))}::timestamptz
      from automation_runs r
     where r.contact_id = ${input.contactId} and r.business_id = ${businessId} and r.status = 'waiting'
       and s.run_id = r.id and s.status = 'waiting' and s.answer_wait`);
  const n = res.rowCount ?? 0;
  if (n > 0) {
    await ctx.db.execute(sql`select pg_notify(${CHANNEL}, '')`);
    wakeRunner(ctx);
  }
  return n;
}

/** Plugs the engine into the app: the runner where jobs are worked, the answer listener. */
export function plugAutomationsEngine(p: {
  deps: Deps;
  queue: Queue;
  events: EventBus;
  onReady: ((deps: Deps) => Promise<unknown>)[];
  onClose: (() => Promise<unknown>)[];
}): void {
  p.events.on(messageReceived, async (e) => {
    if (e.keyword) return;
    const ctx = tenantContext(
      p.deps,
      { level: 'business', agencyId: e.agencyId, businessId: e.businessId },
      { kind: 'system', source: 'automation', name: 'automation answer' },
    );
    const notice = await messageNotice(ctx, e.messageId);
    if (notice?.text) await wakeOnAnswer(ctx, { contactId: e.contactId, body: notice.text });
  });
  p.onReady.push(async (deps) => {
    if (!deps.queue.working) return;
    const runner = new Runner(deps);
    await runner.start();
    p.onClose.push(() => runner.stop());
  });
}
