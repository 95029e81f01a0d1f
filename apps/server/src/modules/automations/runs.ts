// The run views (ADR 068) for the API (ADR 070): a business's journeys (per automation, per contact, by
// status or by the block they are at), one journey step by step, and how many contacts are at and passed
// each block of an automation. Shapes: the contracts' ZRun, ZRunStep, ZBlockCounts.
import type { TRun, TRunStatus, TRunStep } from '@stn/contracts/automations';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import { listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { type Ctx, found, scope } from '../../platform/tenancy/context.ts';
import { contactsByIds } from '../contacts/service.ts';
import { automationRuns, automationSteps, automations } from './tables.ts';

export type RunListInput = {
  automationId?: number;
  contactId?: number;
  status?: TRunStatus;
  block_id?: string;
  page: number;
  perPage: number;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);
type RunRow = typeof automationRuns.$inferSelect;

async function toRuns(ctx: Ctx, rows: RunRow[]): Promise<Omit<TRun, 'steps'>[]> {
  if (rows.length === 0) return [];
  const [autos, people] = await Promise.all([
    ctx.db
      .select({ id: automations.id, name: automations.name })
      .from(automations)
      .where(inArray(automations.id, [...new Set(rows.map((r) => r.automation_id))])),
    contactsByIds(ctx, [...new Set(rows.map((r) => r.contact_id))]),
  ]);
  const names = new Map(autos.map((a) => [a.id, a.name]));
  const contacts = new Map(people.map((c) => [c.id, c]));
  return rows.map((r) => {
    const c = contacts.get(r.contact_id);
    return {
      id: r.id,
      automation_id: r.automation_id,
      automation_name: names.get(r.automation_id) ?? '',
      contact_id: r.contact_id,
      contact_name: c ? `${c.first_name} ${c.last_name}`.trim() : '',
      contact_phone: c?.phone ?? '',
      status: r.status as TRun['status'],
      trigger: r.trigger as TRun['trigger'],
      current_block: r.current_block,
      started_at: r.started_at.toISOString(),
      finished_at: iso(r.finished_at),
    };
  });
}

/** The business's runs, newest first. */
export async function listRuns(ctx: Ctx, q: RunListInput) {
  const where = scope(
    ctx,
    automationRuns,
    q.automationId !== undefined ? eq(automationRuns.automation_id, q.automationId) : undefined,
    q.contactId !== undefined ? eq(automationRuns.contact_id, q.contactId) : undefined,
    q.status ? eq(automationRuns.status, q.status) : undefined,
    q.block_id ? eq(automationRuns.current_block, q.block_id) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(automationRuns)
      .where(where)
      .orderBy(desc(automationRuns.started_at), desc(automationRuns.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(automationRuns).where(where),
  ]);
  return listEnvelope(await toRuns(ctx, rows), total?.n ?? 0, q);
}

/** One run of the business with its steps in order; 404 when not the business's. */
export async function getRun(ctx: Ctx, input: { id: number }): Promise<TRun> {
  const [row] = await ctx.db
    .select()
    .from(automationRuns)
    .where(scope(ctx, automationRuns, eq(automationRuns.id, input.id)));
  const run = found(row);
  const steps = await ctx.db
    .select()
    .from(automationSteps)
    .where(eq(automationSteps.run_id, run.id))
    .orderBy(asc(automationSteps.seq));
  const [view] = await toRuns(ctx, [run]);
  return {
    ...(view as Omit<TRun, 'steps'>),
    steps: steps.map(
      (s): TRunStep => ({
        seq: s.seq,
        block_id: s.block_id,
        type: s.type as TRunStep['type'],
        status: s.status as TRunStep['status'],
        output: s.output,
        detail: s.detail,
        error: s.error,
        attempts: s.attempts,
        due_at: s.due_at.toISOString(),
        finished_at: iso(s.finished_at),
      }),
    ),
  };
}

/**
 * Per block of the automation: contacts whose journey is at it now (live runs) and how many steps passed
 * it (done). Blocks nobody reached are absent.
 */
export async function blockCounts(
  ctx: Ctx,
  input: { automationId: number },
): Promise<{ data: { block_id: string; at: number; passed: number }[] }> {
  const [a] = await ctx.db
    .select({ id: automations.id })
    .from(automations)
    .where(scope(ctx, automations, eq(automations.id, input.automationId)));
  found(a);
  const rows = await ctx.db
    .select({
      block_id: automationSteps.block_id,
      at: sql<number>`count(*) filter (where ${automationSteps.status} in ('pending', 'running', 'waiting'))::int`,
      passed: sql<number>`count(*) filter (where ${automationSteps.status} = 'done')::int`,
    })
    .from(automationSteps)
    .where(and(eq(automationSteps.automation_id, input.automationId)))
    .groupBy(automationSteps.block_id)
    .orderBy(asc(automationSteps.block_id));
  return { data: rows };
}
