import { randomBytes } from 'node:crypto';
import type {
  TAutomation,
  TAutomationListQuery,
  TAutomationRequest,
  TBlock,
  TTrigger,
  TTriggerKind,
} from '@stn/contracts/automations';
import { count, desc, eq, ilike, inArray, isNull, ne, sql } from 'drizzle-orm';
import { AppError } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { businessOf, type Ctx, found, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { businessLimits } from '../businesses/service.ts';
import { contactsByIds } from '../contacts/service.ts';
import { assertActivatable, assertReferences, normalised } from './checks.ts';
import { stopRun } from './engine.ts';
import { forgetActiveTriggers } from './matching.ts';
import { automationRuns, automations } from './tables.ts';

// The automations of a business (spec 001 "Automations": /v1/automations; ADR 070): saving (a draft may be
// incomplete; activation runs the check), the plan's limit, toggling, deleting (its journeys stopped),
// duplicating, and the unique inbound URL of the webhook triggers. Templates, sharing and cloning are in
// share.ts; the test text and e-mail in testing.ts.

export type AutomationRow = typeof automations.$inferSelect;
export const automationCols = { agency_id: automations.agency_id, business_id: automations.business_id };

/** The triggers that listen on the automation's unique URL. */
const URL_TRIGGERS: TTriggerKind[] = ['webhook', 'home-advisor'];

/** A share link's token: random, unguessable (192 bits). */
export const newShareToken = () => randomBytes(24).toString('base64url');
/** An inbound URL's token (144 bits). */
export const newWebhookToken = () => randomBytes(18).toString('base64url');

/** The unique inbound URL of a token: helper T's route `/webhooks/automations/<token>` (ADR 069). */
export function webhookUrl(ctx: Ctx, token: string): string {
  return `${ctx.deps.config.publicUrl.toString().replace(/\/+$/, '')}/webhooks/automations/${token}`;
}

/** Runs in progress (active or waiting) and all-time, per automation. */
async function runCounts(ctx: Ctx, ids: number[]): Promise<Map<number, { active: number; total: number }>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({
      id: automationRuns.automation_id,
      active: sql<number>`count(*) filter (where ${automationRuns.status} in ('active', 'waiting'))::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(automationRuns)
    .where(inArray(automationRuns.automation_id, ids))
    .groupBy(automationRuns.automation_id);
  return new Map(rows.map((r) => [r.id, { active: r.active, total: r.total }]));
}

/** Rows as the API shows them; rows of the business itself unless told (a template's: `foreign`). */
export async function shapeAutomations(ctx: Ctx, rows: AutomationRow[]): Promise<TAutomation[]> {
  const counts = await runCounts(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    start_trigger: r.start_trigger as TTriggerKind,
    trigger: r.trigger,
    active: r.active,
    blocks: r.blocks,
    options: r.options,
    installs: r.installs,
    tags: r.tags,
    webhook_url:
      r.webhook_token && URL_TRIGGERS.includes(r.start_trigger as TTriggerKind)
        ? webhookUrl(ctx, r.webhook_token)
        : null,
    share_token: r.share_token,
    runs: counts.get(r.id) ?? { active: 0, total: 0 },
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

/** A live (not deleted) automation of the business, or 404; `lock` holds its row to the transaction's end. */
export async function findAutomation(ctx: Ctx, id: number, lock = false): Promise<AutomationRow> {
  businessOf(ctx);
  const q = ctx.db
    .select()
    .from(automations)
    .where(scope(ctx, automationCols, eq(automations.id, id), isNull(automations.deleted_at)));
  const [row] = lock ? await q.for('update') : await q;
  return found(row);
}

export async function getAutomation(ctx: Ctx, id: number): Promise<TAutomation> {
  const [a] = await shapeAutomations(ctx, [await findAutomation(ctx, id)]);
  return found(a);
}

export async function listAutomations(ctx: Ctx, q: TAutomationListQuery) {
  businessOf(ctx);
  const term = q.search || q.keyword;
  const where = scope(
    ctx,
    automationCols,
    isNull(automations.deleted_at),
    term ? ilike(automations.name, likePattern(term)) : undefined,
    q.status ? eq(automations.active, q.status === 'active') : undefined,
    q.trigger ? eq(automations.start_trigger, q.trigger) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(automations)
      .where(where)
      .orderBy(desc(automations.created_at), desc(automations.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(automations).where(where),
  ]);
  return listEnvelope(await shapeAutomations(ctx, rows), total?.n ?? 0, q);
}

/** Every live automation, by name (pickers: AddToAutomation, the contacts' automation calls). */
export async function allAutomations(ctx: Ctx) {
  businessOf(ctx);
  return ctx.db
    .select({ id: automations.id, name: automations.name, active: automations.active })
    .from(automations)
    .where(scope(ctx, automationCols, isNull(automations.deleted_at)))
    .orderBy(automations.name, automations.id);
}

// ---------------------------------------------------------------------------------------------------
// The plan's limit (businesses.number_of_automations, plan key Automations): on create, the business's
// automations; on activation, its active ones. The business row is locked, so two at once cannot both
// take the last place.

async function assertRoom(tx: Ctx, what: 'saved' | 'active', exceptId?: number): Promise<void> {
  const { businessId } = businessOf(tx);
  const limits = await businessLimits(tx, { id: businessId, lock: true });
  const max = Math.max(0, limits?.number_of_automations ?? 0);
  const [row] = await tx.db
    .select({ n: count() })
    .from(automations)
    .where(
      scope(
        tx,
        automationCols,
        isNull(automations.deleted_at),
        what === 'active' ? eq(automations.active, true) : undefined,
        exceptId ? ne(automations.id, exceptId) : undefined,
      ),
    );
  if ((row?.n ?? 0) < max) return;
  const key = what === 'active' ? 'automations.active_limit_reached' : 'automations.limit_reached';
  throw new AppError('VALIDATION', key, undefined, { count: max }, key.replace('automations.', ''));
}

// ---------------------------------------------------------------------------------------------------
// Saving.

/** What a save writes: the graph normalised, the trigger's kind beside it. */
function values(input: TAutomationRequest) {
  const { trigger, blocks } = normalised({ trigger: input.trigger, blocks: input.blocks });
  return {
    name: input.name,
    start_trigger: trigger.kind,
    trigger,
    blocks,
    options: input.options,
    installs: [...new Set(input.installs)],
    tags: [...new Set(input.tags)],
  };
}

const tokenTaken = (err: unknown) => {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const c = e?.code === '23505' ? e : e?.cause?.code === '23505' ? e.cause : undefined;
  return c?.constraint === 'automations_webhook_token_uq';
};

/** Runs a write; a webhook token another automation holds is the caller's field error. */
async function savingToken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (tokenTaken(err))
      throw new AppError('VALIDATION', undefined, { webhook_token: 'automations.webhook_token_taken' });
    throw err;
  }
}

/** Checks a create or update; activation (`active: true`) also runs the check. */
async function checked(ctx: Ctx, input: TAutomationRequest, selfId?: number) {
  await assertReferences(ctx, input, selfId);
  if (input.active) assertActivatable(input);
  return values(input);
}

/** The row values of a new automation (a copy's too): its own tokens, made by whom. */
export function newRowKeys(ctx: Ctx, trigger: TTrigger, webhookToken?: string) {
  const { agencyId, businessId } = businessOf(ctx);
  return {
    agency_id: agencyId,
    business_id: businessId,
    share_token: newShareToken(),
    webhook_token: webhookToken ?? (URL_TRIGGERS.includes(trigger.kind) ? newWebhookToken() : null),
    created_by: ctx.by.kind === 'user' ? ctx.by.actor.userId : null,
  };
}

/** Inserts an automation after the plan's limit (and, active, the active limit) left room. */
export async function insertAutomation(
  ctx: Ctx,
  row: ReturnType<typeof values> & ReturnType<typeof newRowKeys> & { active: boolean },
): Promise<number> {
  return savingToken(() =>
    inTransaction(ctx, async (tx) => {
      await assertRoom(tx, 'saved');
      if (row.active) await assertRoom(tx, 'active');
      const [created] = await tx.db.insert(automations).values(row).returning({ id: automations.id });
      return found(created).id;
    }),
  );
}

/** Creates an automation: a draft, or active when asked and the check finds nothing. */
export async function createAutomation(ctx: Ctx, input: TAutomationRequest): Promise<TAutomation> {
  const v = await checked(ctx, input);
  const id = await insertAutomation(ctx, {
    ...v,
    ...newRowKeys(ctx, v.trigger, input.webhook_token),
    active: input.active,
  });
  if (input.active) forgetActiveTriggers(ctx);
  return getAutomation(ctx, id);
}

/**
 * Saves an automation (a new version: journeys under way go on with the version they started with, ADR
 * 068). `active` says whether it is to be active after the save: activation runs the check and the limit.
 */
export async function updateAutomation(
  ctx: Ctx,
  id: number,
  input: TAutomationRequest,
): Promise<TAutomation> {
  await findAutomation(ctx, id);
  const v = await checked(ctx, input, id);
  await savingToken(() =>
    inTransaction(ctx, async (tx) => {
      const cur = await findAutomation(tx, id, true);
      if (input.active && !cur.active) await assertRoom(tx, 'active', cur.id);
      const token =
        input.webhook_token ??
        cur.webhook_token ??
        (URL_TRIGGERS.includes(v.trigger.kind) ? newWebhookToken() : null);
      await tx.db
        .update(automations)
        .set({
          ...v,
          active: input.active,
          webhook_token: token,
          version: sql`${automations.version} + 1`,
          updated_at: new Date(),
        })
        .where(eq(automations.id, cur.id));
    }),
  );
  // Its trigger may have changed, or it may be active now: once committed, the triggers are read again.
  forgetActiveTriggers(ctx);
  return getAutomation(ctx, id);
}

/** Turns an automation on (the check and the active limit) or off (new entries stop; ADR 070). */
export async function toggleAutomation(ctx: Ctx, id: number, active: boolean): Promise<TAutomation> {
  const before = await findAutomation(ctx, id);
  if (active && !before.active) {
    // A tag, template or user named when it was saved may have gone since: checked again.
    await assertReferences(ctx, before, before.id);
    assertActivatable(before);
  }
  await inTransaction(ctx, async (tx) => {
    const cur = await findAutomation(tx, id, true);
    if (cur.active === active) return;
    if (active) {
      assertActivatable(cur);
      await assertRoom(tx, 'active', cur.id);
    }
    await tx.db.update(automations).set({ active, updated_at: new Date() }).where(eq(automations.id, cur.id));
  });
  if (active) forgetActiveTriggers(ctx);
  return getAutomation(ctx, id);
}

/** Deletes (soft) an automation: inactive, gone from every list, its journeys in progress stopped. */
export async function deleteAutomation(ctx: Ctx, id: number): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const cur = await findAutomation(tx, id, true);
    await tx.db
      .update(automations)
      .set({ active: false, deleted_at: new Date(), updated_at: new Date() })
      .where(eq(automations.id, cur.id));
    await stopRun(tx, { automationId: cur.id });
  });
}

/** A copy's name: the original's with " (copy)", within the name's length. */
export const copyName = (name: string) => `${name.slice(0, 191 - 7)} (copy)`;

/** Copies an automation within the business: " (copy)", inactive, its own share link and inbound URL. */
export async function duplicateAutomation(ctx: Ctx, id: number): Promise<TAutomation> {
  const cur = await findAutomation(ctx, id);
  const copy = await insertAutomation(ctx, {
    name: copyName(cur.name),
    start_trigger: cur.start_trigger as TTriggerKind,
    trigger: cur.trigger,
    blocks: cur.blocks as TBlock[],
    options: cur.options,
    installs: cur.installs,
    tags: cur.tags,
    ...newRowKeys(ctx, cur.trigger),
    active: false,
  });
  return getAutomation(ctx, copy);
}

// ---------------------------------------------------------------------------------------------------
// The unique inbound URL (webhook and home-advisor triggers).

/** A fresh token and its URL, not saved: the editor shows the URL before the first save sends it back. */
export function newWebhook(ctx: Ctx): { token: string; url: string } {
  businessOf(ctx);
  const token = newWebhookToken();
  return { token, url: webhookUrl(ctx, token) };
}

/** The automation's token and URL, made (and saved) when it had none. */
export async function automationWebhook(ctx: Ctx, id: number): Promise<{ token: string; url: string }> {
  const token = await inTransaction(ctx, async (tx) => {
    const cur = await findAutomation(tx, id, true);
    if (cur.webhook_token) return cur.webhook_token;
    const made = newWebhookToken();
    await tx.db
      .update(automations)
      .set({ webhook_token: made, updated_at: new Date() })
      .where(eq(automations.id, cur.id));
    return made;
  });
  return { token, url: webhookUrl(ctx, token) };
}

/** A live contact of the business (its journeys' view), or 404. */
export async function contactOfBusiness(ctx: Ctx, contactId: number): Promise<number> {
  businessOf(ctx);
  const [c] = await contactsByIds(ctx, [contactId]);
  return found(c).id;
}
