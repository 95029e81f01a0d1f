// The automations engine (ADR 068): runs (one journey of one contact), their steps (the exactly-once job
// rows), the claim loop of the worker processes (runner.ts), waits, retries, and the run views (runs.ts).
// Triggers (ADR 069, triggers.ts) call `enterContacts`; the API (service.ts) calls `stopRun` and the views.
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { businessBatcher } from '../../platform/batcher.ts';
import type { Deps } from '../../platform/deps.ts';
import { engineNow } from '../../platform/engine-clock.ts';
import type { EventBus } from '../../platform/events/events.ts';
import type { Queue } from '../../platform/queue/queue.ts';
import { businessOf, type Ctx, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { messageNotice, messageReceived } from '../chats/service.ts';
import { alertTextJob } from './actions/alert.ts';
import { Runner } from './runner.ts';
import { notifyRunners, wakeRunner } from './wake.ts';

export { type Entry, enterContacts } from './entry.ts';

const iso = (ms: number) => new Date(ms).toISOString();

export { blockCounts, getRun, listRuns } from './runs.ts';

/**
 * Stops the contact's journey in progress in the automation (its pending step is cancelled); without a
 * contact, every journey in progress in it (the automation deleted). True when one was stopped.
 */
export async function stopRun(
  ctx: Ctx,
  input: { automationId: number; contactId?: number },
): Promise<boolean> {
  const { businessId } = businessOf(ctx);
  return inTransaction(ctx, async (tx) => {
    const res = await tx.db.execute<{ id: string }>(sql`
      update automation_runs set status = 'stopped', finished_at = ${iso(engineNow(ctx))}::timestamptz,
             updated_at = now()
       where automation_id = ${input.automationId}
         ${input.contactId === undefined ? sql`` : sql`and contact_id = ${input.contactId}`}
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
 * An inbound text of a contact (stored after the question: a greater message id) wakes its waiting CollectContactData steps (those that wait for an answer):
 * each is due now (still waiting: the wake is no new attempt), with the text as its answer.
 */
export async function wakeOnAnswer(
  ctx: Ctx,
  input: { contactId: number; messageId: number; body: string },
): Promise<number> {
  const { businessId } = businessOf(ctx);
  const res = await ctx.db.execute(sql`
    update automation_steps s set answer = ${input.body},
           due_at = ${iso(engineNow(ctx))}::timestamptz
      from automation_runs r
     where r.contact_id = ${input.contactId} and r.business_id = ${businessId} and r.status = 'waiting'
       and s.run_id = r.id and s.status = 'waiting' and s.answer_wait
       and coalesce((s.detail->>'message_id')::bigint, 0) < ${input.messageId}`);
  const n = res.rowCount ?? 0;
  if (n > 0) {
    await notifyRunners(ctx);
    wakeRunner(ctx);
  }
  return n;
}

/**
 * Many inbound texts of the context's business at once (a batch announced together): one statement, each
 * contact's waiting steps answered by its latest text, as one `wakeOnAnswer` a text in order would leave
 * them.
 */
export async function wakeOnAnswers(
  ctx: Ctx,
  texts: { contactId: number; messageId: number; body: string }[],
): Promise<number> {
  if (texts.length === 0) return 0;
  const first = texts[0];
  if (texts.length === 1 && first) return wakeOnAnswer(ctx, first);
  const { businessId } = businessOf(ctx);
  const res = await ctx.db.execute(sql`
    update automation_steps s set answer = a.b,
           due_at = ${iso(engineNow(ctx))}::timestamptz
      from automation_runs r,
           (select distinct on (c) c, m, b
              from jsonb_to_recordset(${JSON.stringify(texts.map((t) => ({ c: t.contactId, m: t.messageId, b: t.body })))}::jsonb)
                as x(c int, m bigint, b text)
             order by c, m desc) a
     where r.contact_id = a.c and r.business_id = ${businessId} and r.status = 'waiting'
       and s.run_id = r.id and s.status = 'waiting' and s.answer_wait
       and coalesce((s.detail->>'message_id')::bigint, 0) < a.m`);
  const n = res.rowCount ?? 0;
  if (n > 0) {
    await notifyRunners(ctx);
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
  // An Alert step's texts, sent once its step committed.
  p.queue.register(alertTextJob);
  // The texts announced together (a batch of inbound texts) wake their contacts' steps in one statement.
  const answers = businessBatcher<z.infer<typeof messageReceived.payload>>({
    run: async (items) => {
      const first = items[0];
      if (!first) return;
      const ctx = tenantContext(
        p.deps,
        { level: 'business', agencyId: first.agencyId, businessId: first.businessId },
        { kind: 'system', source: 'automation', name: 'automation answer' },
      );
      const texts: { contactId: number; messageId: number; body: string }[] = [];
      for (const e of items) {
        // The text as stored is the event's body; only a text without one (an MMS) is read for its notice.
        const text = e.body ? e.body : (await messageNotice(ctx, e.messageId))?.text;
        if (text) texts.push({ contactId: e.contactId, messageId: e.messageId, body: text });
      }
      await wakeOnAnswers(ctx, texts);
    },
    onError: (err) => p.deps.log.error({ err, event: messageReceived.name }, 'event listener failed'),
  });
  p.events.on(messageReceived, (e) => {
    if (e.keyword) return;
    return answers.add(e);
  });
  p.onReady.push(async (deps) => {
    if (!deps.queue.working) return;
    const runner = new Runner(deps);
    await runner.start();
    p.onClose.push(() => runner.stop());
  });
}
