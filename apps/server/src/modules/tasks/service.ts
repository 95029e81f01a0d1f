import type { TTask, TTaskListQuery, TTaskRequest } from '@stn/contracts/tasks';
import { and, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { channel } from '../../platform/realtime/hub.ts';
import { actingUser, businessOf, type Ctx, inTransaction, scope } from '../../platform/tenancy/context.ts';
import { contactsByIds } from '../contacts/service.ts';
import { businessUserSummaries, getUser } from '../users/service.ts';
import { tasks } from './tables.ts';

// The tasks of a business (spec 001 "Tasks"). Every business user with tasks.use sees the business's
// tasks; the badge counts the open tasks assigned to the signed-in user, and the assignee hears `new_task`
// on their user channel when a task is assigned to them (after the commit).

type TaskRow = typeof tasks.$inferSelect;
const cols = { agency_id: tasks.agency_id, business_id: tasks.business_id };

async function shape(ctx: Ctx, rows: TaskRow[]): Promise<TTask[]> {
  const biz = businessOf(ctx);
  const userIds = [...new Set(rows.map((r) => r.user_id))];
  const contactIds = [...new Set(rows.flatMap((r) => (r.contact_id ? [r.contact_id] : [])))];
  const [people, folks] = await Promise.all([
    businessUserSummaries(ctx, { businessId: biz.businessId, ids: userIds }),
    contactsByIds(ctx, contactIds),
  ]);
  const name = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();
  return rows.map((r) => {
    const u = people.find((p) => p.id === r.user_id);
    const c = r.contact_id ? folks.find((f) => f.id === r.contact_id) : undefined;
    return {
      id: r.id,
      title: r.title,
      description: r.description,
      contact_id: r.contact_id,
      contact: c ? { id: c.id, name: name(c) || c.phone, phone: c.phone } : null,
      user_id: r.user_id,
      assignee: { id: r.user_id, name: u ? name(u) || u.email : '' },
      due_date: r.due_date,
      status: r.status,
      created_at: r.created_at.toISOString(),
    };
  });
}

async function findTask(ctx: Ctx, id: number): Promise<TaskRow> {
  const [row] = await ctx.db
    .select()
    .from(tasks)
    .where(scope(ctx, cols, eq(tasks.id, id)));
  if (!row) throw notFound();
  return row;
}

function filters(ctx: Ctx, q: Pick<TTaskListQuery, 'search' | 'keyword' | 'status'>) {
  const term = q.search || q.keyword;
  const like = term ? likePattern(term) : undefined;
  return scope(
    ctx,
    cols,
    like ? or(ilike(tasks.title, like), ilike(tasks.description, like)) : undefined,
    q.status ? eq(tasks.status, q.status) : undefined,
  );
}

const order = [sql`${tasks.status} = 'done'`, sql`${tasks.due_date} asc nulls last`, desc(tasks.id)];

export async function listTasks(ctx: Ctx, q: TTaskListQuery) {
  businessOf(ctx);
  const where = filters(ctx, q);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select()
      .from(tasks)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(tasks).where(where),
  ]);
  return listEnvelope(await shape(ctx, rows), total?.n ?? 0, q);
}

export async function allTasks(ctx: Ctx, q: Pick<TTaskListQuery, 'search' | 'keyword' | 'status'>) {
  businessOf(ctx);
  const rows = await ctx.db
    .select()
    .from(tasks)
    .where(filters(ctx, q))
    .orderBy(...order);
  return shape(ctx, rows);
}

export async function getTask(ctx: Ctx, id: number): Promise<TTask> {
  businessOf(ctx);
  const [full] = await shape(ctx, [await findTask(ctx, id)]);
  if (!full) throw notFound();
  return full;
}

/** The assignee must be an active user of this business; the contact one of its live contacts. */
async function assertRefs(ctx: Ctx, input: { user_id: number; contact_id: number | null }) {
  const biz = businessOf(ctx);
  const u = await getUser(ctx, input.user_id);
  if (!u || u.business_id !== biz.businessId || !u.active) throw invalid('user_id', 'tasks.assignee_invalid');
  if (input.contact_id) {
    const [c] = await contactsByIds(ctx, [input.contact_id]);
    if (!c) throw invalid('contact_id', 'tasks.contact_invalid');
  }
}

/** The open tasks assigned to the user: the task badge (profile's number_of_tasks). */
export async function openTaskCount(ctx: Ctx, userId: number): Promise<number> {
  const [n] = await ctx.db
    .select({ n: count() })
    .from(tasks)
    .where(and(eq(tasks.user_id, userId), eq(tasks.status, 'open')));
  return n?.n ?? 0;
}

/** Counts the assignee's open tasks in the transaction and, after the commit, tells them (realtime `new_task`). */
async function announce(ctx: Ctx, userId: number) {
  const number_of_tasks = await openTaskCount(ctx, userId);
  ctx.afterCommit(async () => {
    await ctx.deps.realtime.publish(channel.user(userId), { type: 'new_task', data: { number_of_tasks } });
  });
}

/**
 * Creates a task: by a user (assigned to them unless told), or by the system (an automation's Alert, ADR
 * 071), which must name the assignee.
 */
export async function createTask(ctx: Ctx, input: TTaskRequest): Promise<TTask> {
  const biz = businessOf(ctx);
  const actor = ctx.by.kind === 'user' ? actingUser(ctx) : null;
  const id = await inTransaction(ctx, async (tx) => {
    const userId = input.user_id ?? actor?.userId;
    if (userId === undefined) throw invalid('user_id', 'tasks.assignee_invalid');
    const contactId = input.contact_id ?? null;
    await assertRefs(tx, { user_id: userId, contact_id: contactId });
    const [row] = await tx.db
      .insert(tasks)
      .values({
        agency_id: biz.agencyId,
        business_id: biz.businessId,
        title: input.title,
        description: input.description,
        contact_id: contactId,
        user_id: userId,
        created_by: actor?.userId ?? null,
        due_date: input.due_date ?? null,
        status: input.status,
        done_at: input.status === 'done' ? new Date() : null,
      })
      .returning({ id: tasks.id });
    if (!row) throw notFound();
    if (input.status === 'open') await announce(tx, userId);
    return row.id;
  });
  return getTask(ctx, id);
}

/** Edits a task (every field is replaced, as the edit form sends it all). */
export async function updateTask(ctx: Ctx, id: number, input: TTaskRequest): Promise<TTask> {
  businessOf(ctx);
  await inTransaction(ctx, async (tx) => {
    const cur = await findTask(tx, id);
    const userId = input.user_id ?? cur.user_id;
    const contactId = input.contact_id === undefined ? cur.contact_id : input.contact_id;
    await assertRefs(tx, { user_id: userId, contact_id: contactId });
    await tx.db
      .update(tasks)
      .set({
        title: input.title,
        description: input.description,
        contact_id: contactId,
        user_id: userId,
        due_date: input.due_date === undefined ? cur.due_date : input.due_date,
        status: input.status,
        done_at: input.status === 'done' ? (cur.done_at ?? new Date()) : null,
        updated_at: new Date(),
      })
      .where(eq(tasks.id, cur.id));
    // The badge moves for whoever gains or loses an open task.
    const wasOpen = cur.status === 'open';
    const isOpen = input.status === 'open';
    if (isOpen && (!wasOpen || userId !== cur.user_id)) await announce(tx, userId);
    if (wasOpen && (!isOpen || userId !== cur.user_id)) await announce(tx, cur.user_id);
  });
  return getTask(ctx, id);
}

export async function deleteTask(ctx: Ctx, id: number): Promise<void> {
  businessOf(ctx);
  await inTransaction(ctx, async (tx) => {
    const cur = await findTask(tx, id);
    await tx.db.delete(tasks).where(eq(tasks.id, cur.id));
    if (cur.status === 'open') await announce(tx, cur.user_id);
  });
}
