// The engine's worker (ADR 068): claims due steps in batches, works each through its block's executor and,
// in the same transaction as the executor's own database effects, writes the step's result and the run's
// next step (or its end). One Runner per process where jobs are worked.
//
// - Liveness: a runner holds a session advisory lock (LOCK_CLASS, its id) on a connection of its own and
//   stamps the steps it claims with that id. A `running` step whose claimer holds no lock any more was left
//   by a dead process (PostgreSQL drops the lock the moment the connection dies): it is put back to
//   pending and claimed again (attempts + 1, same step key). No lease to expire, so a step may run long.
// - Latency: enterContacts wakes the local runner after commit and NOTIFYs the others (LISTEN on its own
//   connection); a runner wakes when the next step it knows of is due (one it wrote, or the first one due
//   later when it found nothing to do), and looks on its own every LOOK_MS (ADR 120).
// - Throughput: the flow blocks and AddTag (database work only) of a claim are worked in a few (LANES)
//   transactions side by side, each step in a savepoint; the blocks that talk to the outside (a text, a call, a webhook, an e-mail, an
//   alert) each get their own transaction and run PARALLEL at a time beside the loop.
import { randomInt } from 'node:crypto';
import { ACTION_CONFIGS, type TActionKind, type TBlock } from '@stn/contracts/automations';
import { and, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { poolOf, type Tx } from '../../platform/db/client.ts';
import type { Deps } from '../../platform/deps.ts';
import { engineNow, manualClockOf } from '../../platform/engine-clock.ts';
import { type Ctx, platformSystemContext, tenantContext } from '../../platform/tenancy/context.ts';
import { contactsWithTags } from '../contacts/service.ts';
import { ACTIONS } from './actions/index.ts';
import type { RunContact, StepResult } from './actions/types.ts';
import { automationRuns, automations } from './tables.ts';
import { CHANNEL, runners } from './wake.ts';

export const LOCK_CLASS = 68_068;
const BATCH = 200;
/**
 * The longest a runner waits without looking (ADR 120): new work wakes it (its own process directly, the
 * others by NOTIFY), and it knows when the next step it wrote, or found waiting, is due.
 */
const LOOK_MS = 10_000;
const RECOVER_MS = 5000;
/** The most outside-calling steps at once: 8, fewer on a small pool (each holds a connection). */
const PARALLEL = 8;
/** Transactions the light steps of one claim are worked in, side by side. */
const LANES = 3;
export const MAX_ATTEMPTS = 5;
/** Kinds worked together in one transaction (database work only, no call to the outside). */
const LIGHT = new Set<TActionKind>(['Wait', 'ProcessBetween', 'Condition', 'AddToAutomation', 'AddTag']);
/** Kinds whose executors only read: worked without a savepoint of their own. */
const READ_ONLY = new Set<TActionKind>(['Wait', 'ProcessBetween', 'Condition']);
const LIVE = ['active', 'waiting'];

type Claimed = {
  id: number;
  run_id: number;
  business_id: number;
  automation_id: number;
  seq: number;
  block_id: string;
  type: TActionKind;
  detail: Record<string, unknown>;
  attempts: number;
  answer: string | null;
};

type RunChange = {
  status: 'active' | 'waiting' | 'completed' | 'failed' | 'stopped';
  block: string | null;
  vars: Record<string, unknown>;
  next: { blockId: string; type: string } | null;
};

type Outcome = {
  step: Claimed;
  status: 'done' | 'waiting' | 'pending' | 'failed' | 'skipped';
  output: string | null;
  detail: Record<string, unknown>;
  error: string | null;
  dueAt: number | null;
  answerWait: boolean;
  run: RunChange | null;
};

type Loaded = {
  automations: Map<number, typeof automations.$inferSelect>;
  runs: Map<number, typeof automationRuns.$inferSelect>;
  contacts: Map<number, RunContact>;
};

const iso = (ms: number) => new Date(ms).toISOString();

/** Backoff of a failed attempt: what the executor asked, else 2 s doubled each attempt, at most 5 minutes. */
export function backoffMs(attempt: number, asked?: number): number {
  return asked ?? Math.min(2000 * 2 ** Math.max(0, attempt - 1), 300_000);
}

function toRunContact(c: Awaited<ReturnType<typeof contactsWithTags>>[number]): RunContact {
  return {
    id: c.id,
    phone: c.phone,
    first_name: c.first_name,
    last_name: c.last_name,
    name: `${c.first_name} ${c.last_name}`.trim(),
    email: c.email,
    birthday: c.birthday,
    anniversary: c.anniversary,
    fields: c.fields,
    tag_ids: c.tag_ids,
    install_id: c.install_id,
    opted_out: c.opted_out_at !== null,
    blocked: c.blocked_at !== null,
  };
}

/** The step's context: the business's, the automation acting, in the given transaction. */
function stepCtx(deps: Deps, a: { agency_id: number; business_id: number; id: number }): Ctx {
  return tenantContext(
    deps,
    { level: 'business', agencyId: a.agency_id, businessId: a.business_id },
    { kind: 'system', source: 'automation', name: `automation ${a.id}` },
  );
}

class Rollback extends Error {
  constructor(readonly outcome: Outcome) {
    super('step rolled back');
  }
}

/** What a step's result means for the step and its run. */
export function decide(
  step: Claimed,
  block: TBlock,
  blocks: TBlock[],
  result: StepResult,
  now: number,
): Outcome {
  const base = { step, output: null, detail: step.detail, error: null, dueAt: null, answerWait: false };
  const goOn = (output: string, vars: Record<string, unknown> = {}): RunChange => {
    const target = block.outputs[output] ?? null;
    const next = target ? blocks.find((b) => b.id === target) : undefined;
    return next
      ? { status: 'active', block: next.id, vars, next: { blockId: next.id, type: next.type } }
      : { status: 'completed', block: null, vars, next: null };
  };
  switch (result.kind) {
    case 'next': {
      const output = result.output ?? 'next';
      return {
        ...base,
        status: 'done',
        output,
        detail: result.detail ?? step.detail,
        run: goOn(output, result.vars),
      };
    }
    case 'wait':
      return {
        ...base,
        status: 'waiting',
        detail: result.detail ?? step.detail,
        dueAt: result.until.getTime(),
        answerWait: result.answer === true,
        run: { status: 'waiting', block: block.id, vars: {}, next: null },
      };
    case 'handoff':
      return {
        ...base,
        status: 'done',
        output: 'handoff',
        detail: result.detail ?? step.detail,
        run: { status: 'completed', block: null, vars: {}, next: null },
      };
    case 'fail': {
      const detail = result.detail ?? step.detail;
      if (result.retry && step.attempts < MAX_ATTEMPTS)
        return {
          ...base,
          status: 'pending',
          detail,
          error: result.error,
          dueAt: now + backoffMs(step.attempts, result.retryAfterMs),
          run: null,
        };
      return {
        ...base,
        status: 'failed',
        detail,
        error: result.error,
        run: result.continueRun ? goOn('next') : { status: 'failed', block: block.id, vars: {}, next: null },
      };
    }
  }
}

/** A step that ends its run without running (the run or the automation gone, a broken block). */
function ended(
  step: Claimed,
  status: 'skipped' | 'failed',
  error: string | null,
  run: RunChange['status'] | null,
) {
  return {
    step,
    status,
    output: null,
    detail: step.detail,
    error,
    dueAt: null,
    answerWait: false,
    run: run ? { status: run, block: null, vars: {}, next: null } : null,
  } satisfies Outcome;
}

async function load(deps: Deps, db: Tx, steps: Claimed[]): Promise<Loaded> {
  const autoIds = [...new Set(steps.map((s) => s.automation_id))];
  const runIds = steps.map((s) => s.run_id);
  const [autoRows, runRows] = await Promise.all([
    db.select().from(automations).where(inArray(automations.id, autoIds)),
    db.select().from(automationRuns).where(inArray(automationRuns.id, runIds)),
  ]);
  const byBusiness = new Map<number, { agency_id: number; ids: number[] }>();
  for (const r of runRows) {
    const g = byBusiness.get(r.business_id) ?? { agency_id: r.agency_id, ids: [] };
    g.ids.push(r.contact_id);
    byBusiness.set(r.business_id, g);
  }
  const contacts = new Map<number, RunContact>();
  for (const [business_id, g] of byBusiness) {
    const ctx = { ...stepCtx(deps, { agency_id: g.agency_id, business_id, id: 0 }), db };
    for (const c of await contactsWithTags(ctx, g.ids)) contacts.set(c.id, toRunContact(c));
  }
  return {
    automations: new Map(autoRows.map((a) => [a.id, a])),
    runs: new Map(runRows.map((r) => [r.id, r])),
    contacts,
  };
}

/**
 * Works one step in a savepoint of the group's transaction; a failed or throwing step's own writes are
 * rolled back (its after-commit work dropped), every other's kept.
 */
async function workStep(
  deps: Deps,
  tx: Tx,
  step: Claimed,
  loaded: Loaded,
  now: number,
  afterCommit: (() => unknown)[],
): Promise<Outcome> {
  const run = loaded.runs.get(step.run_id);
  const automation = loaded.automations.get(step.automation_id);
  if (!run || !LIVE.includes(run.status)) return ended(step, 'skipped', null, null);
  if (!automation || automation.deleted_at) return ended(step, 'skipped', null, 'stopped');
  const contact = loaded.contacts.get(run.contact_id);
  if (!contact) return ended(step, 'failed', 'automations.engine.contact_missing', 'failed');
  const block = automation.blocks.find((b) => b.id === step.block_id);
  if (!block || block.type !== step.type)
    return ended(step, 'failed', 'automations.engine.block_missing', 'failed');
  const parsed = ACTION_CONFIGS[block.type].safeParse(block.config);
  if (!parsed.success) return ended(step, 'failed', 'automations.engine.config_invalid', 'failed');
  const mine: (() => unknown)[] = [];
  try {
    const work = async (sp: Tx) => {
      const ctx: Ctx = {
        ...stepCtx(deps, automation),
        db: sp,
        inTx: true,
        afterCommit: (work) => mine.push(work),
      };
      const result = await ACTIONS[block.type]({
        ctx,
        automation: {
          id: automation.id,
          name: automation.name,
          business_id: automation.business_id,
          agency_id: automation.agency_id,
        },
        run: {
          id: run.id,
          trigger: run.trigger,
          trigger_data: run.trigger_data,
          vars: run.vars,
          started_at: run.started_at,
        },
        contact,
        block,
        config: parsed.data,
        step: {
          id: step.id,
          seq: step.seq,
          key: `automation-step-${step.run_id}-${step.seq}`,
          attempt: step.attempts,
          detail: step.detail,
          wake: step.answer !== null ? 'answer' : 'due',
          ...(step.answer !== null ? { answer: step.answer } : {}),
        },
        now: new Date(now),
      });
      const o = decide(step, block, automation.blocks, result, now);
      if (result.kind === 'fail') throw new Rollback(o);
      return o;
    };
    // A block that writes nothing needs no savepoint (a failing read aborts the group: worked alone then).
    const outcome = READ_ONLY.has(block.type) ? await work(tx) : await tx.transaction(work);
    afterCommit.push(...mine);
    return outcome;
  } catch (err) {
    if (err instanceof Rollback) return err.outcome;
    deps.log.warn({ err, step: step.id, type: step.type }, 'automation step threw');
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    return decide(step, block, automation.blocks, { kind: 'fail', error, retry: true }, now);
  }
}

/** Writes the group's outcomes: the runs (still live ones only), the steps, the runs' next steps. */
async function write(db: Tx, outs: Outcome[], now: number, me: number): Promise<number> {
  const withRun = outs.filter((o) => o.run !== null);
  let live = new Set<number>();
  if (withRun.length) {
    const res = await db.execute<{ id: string }>(sql`
      update automation_runs r
         set status = v.status, current_block = v.block, vars = r.vars || v.vars::jsonb, updated_at = now(),
             finished_at = case when v.status in ('completed', 'failed', 'stopped') then ${iso(now)}::timestamptz end
        from unnest(${sql.param(withRun.map((o) => o.step.run_id))}::bigint[],
                    ${sql.param(withRun.map((o) => o.run?.status))}::text[],
                    ${sql.param(withRun.map((o) => o.run?.block ?? null))}::text[],
                    ${sql.param(withRun.map((o) => JSON.stringify(o.run?.vars ?? {})))}::text[])
             as v(id, status, block, vars)
       where r.id = v.id and r.status in ('active', 'waiting')
      returning r.id`);
    live = new Set(res.rows.map((r) => Number(r.id)));
  }
  const res = await db.execute(sql`
    update automation_steps s
       set status = v.status, output = v.output, detail = v.detail::jsonb, error = v.error,
           due_at = coalesce(v.due, s.due_at), answer_wait = v.aw, answer = null, claimed_by = null,
           finished_at = case when v.status in ('done', 'failed', 'skipped') then ${iso(now)}::timestamptz end
      from unnest(${sql.param(outs.map((o) => o.step.id))}::bigint[],
                  ${sql.param(outs.map((o) => o.status))}::text[],
                  ${sql.param(outs.map((o) => o.output))}::text[],
                  ${sql.param(outs.map((o) => JSON.stringify(o.detail)))}::text[],
                  ${sql.param(outs.map((o) => o.error))}::text[],
                  ${sql.param(outs.map((o) => (o.dueAt === null ? null : iso(o.dueAt))))}::timestamptz[],
                  ${sql.param(outs.map((o) => o.answerWait))}::boolean[])
           as v(id, status, output, detail, error, due, aw)
     where s.id = v.id and s.status = 'running' and s.claimed_by = ${me}`);
  if ((res.rowCount ?? 0) !== outs.length) throw new Error('automations: a claimed step was taken over');
  const next = withRun.filter((o) => o.run?.next && live.has(o.step.run_id));
  if (next.length)
    await db.execute(sql`
      insert into automation_steps (run_id, business_id, automation_id, seq, block_id, type, status, due_at)
      select v.run_id, v.business_id, v.automation_id, v.seq, v.block_id, v.type, 'pending', ${iso(now)}::timestamptz
        from unnest(${sql.param(next.map((o) => o.step.run_id))}::bigint[],
                    ${sql.param(next.map((o) => o.step.business_id))}::int[],
                    ${sql.param(next.map((o) => o.step.automation_id))}::int[],
                    ${sql.param(next.map((o) => o.step.seq + 1))}::int[],
                    ${sql.param(next.map((o) => o.run?.next?.blockId))}::text[],
                    ${sql.param(next.map((o) => o.run?.next?.type))}::text[])
             as v(run_id, business_id, automation_id, seq, block_id, type)
      on conflict do nothing`);
  return next.length;
}

export class Runner {
  id = randomInt(1, 2 ** 31 - 1);
  private client: pg.Client | null = null;
  private lost = false;
  private stopping = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private loopDone: Promise<void> = Promise.resolve();
  private heavy: Claimed[] = [];
  private heavyRunning = new Set<Promise<void>>();
  private lastRecover = 0;
  private nextDue = Number.POSITIVE_INFINITY;
  /** The due time lookAhead last handed a test's clock. */
  private lookedAhead = Number.NaN;

  /** A platform context for the runner's own clock readings. */
  private readonly ctx: Ctx;

  /**
   * Outside-calling steps worked at once: each holds a pool connection for its transaction, and half the
   * pool stays free for the claims, the light group and what executors read beside their transaction.
   */
  private readonly parallel: number;

  constructor(private readonly deps: Deps) {
    this.ctx = platformSystemContext(deps, 'job', 'automations runner');
    const max = poolOf(deps.db).options.max ?? 10;
    this.parallel = Math.max(1, Math.min(PARALLEL, Math.floor(max / 2) - 1));
  }

  /** Connects, then works steps until `stop`; this process's runner from now on. */
  async start(): Promise<void> {
    await this.connect();
    runners.set(this.deps, this);
    this.loopDone = this.loop();
  }

  /**
   * Takes this runner's lock (a fresh id if taken) and listens for new work, on a connection of its own:
   * outside the pool, so that holding it for the process's life takes no connection from the requests and
   * jobs (several apps on one pool, as in tests, would otherwise wait for one another).
   */
  private async connect(): Promise<void> {
    const client = new pg.Client(poolOf(this.deps.db).options as pg.ClientConfig);
    await client.connect();
    client.on('error', (err) => {
      this.deps.log.error({ err }, 'automations runner connection lost');
      this.lost = true;
    });
    for (;;) {
      const res = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [
        LOCK_CLASS,
        this.id,
      ]);
      if (res.rows[0]?.ok) break;
      this.id = randomInt(1, 2 ** 31 - 1);
    }
    client.on('notification', () => this.wake());
    await client.query(`listen ${CHANNEL}`);
    this.client = client;
    this.lost = false;
  }

  wake(): void {
    this.woken = true;
    const w = this.wakeUp;
    this.wakeUp = null;
    w?.();
  }

  async stop(): Promise<void> {
    if (runners.get(this.deps) === this) runners.delete(this.deps);
    this.stopping = true;
    this.wake();
    await this.loopDone;
    while (this.heavyRunning.size) await Promise.all([...this.heavyRunning]);
    // Claimed but not started: back to pending for whoever works next.
    const left = this.heavy.splice(0).map((s) => s.id);
    if (left.length)
      await this.deps.db
        .execute(sql`update automation_steps set status = 'pending', claimed_by = null, attempts = attempts - 1
                      where id = any(${sql.param(left)}::bigint[]) and status = 'running' and claimed_by = ${this.id}`)
        .catch(() => null);
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query(`unlisten ${CHANNEL}`).catch(() => null);
      await client.query('select pg_advisory_unlock($1, $2)', [LOCK_CLASS, this.id]).catch(() => null);
      await client.end().catch(() => null);
    }
  }

  private idle(ms: number): Promise<void> {
    if (this.woken || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = null;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      this.woken = false;
      let n = 0;
      try {
        if (this.lost) {
          void this.client?.end().catch(() => null);
          this.client = null;
          await this.connect();
        }
        if (Date.now() - this.lastRecover > RECOVER_MS) {
          this.lastRecover = Date.now();
          await this.recover();
        }
        n = await this.tick();
        if (n === 0 && !this.stopping && this.nextDue === Number.POSITIVE_INFINITY) await this.lookAhead();
      } catch (err) {
        if (this.stopping) break;
        this.deps.log.error({ err }, 'automations runner failed');
        await new Promise((r) => setTimeout(r, 500));
      }
      if (n > 0 || this.stopping) continue;
      const untilDue = this.nextDue - Date.now();
      await this.idle(Math.max(5, Math.min(LOOK_MS, untilDue)));
      if (Date.now() >= this.nextDue) this.nextDue = Number.POSITIVE_INFINITY;
    }
  }

  /**
   * When the first step due later is due, whoever wrote it (a step this runner did not write: another
   * process's, one left when this process started): this runner wakes then.
   */
  private async lookAhead(): Promise<void> {
    const now = engineNow(this.ctx);
    const res = await this.deps.db.execute<{ at: number | null }>(sql`
      select extract(epoch from min(due_at)) * 1000 as at from automation_steps
       where status in ('pending', 'waiting') and due_at > ${iso(now)}::timestamptz`);
    const at = Number(res.rows[0]?.at ?? Number.NaN);
    if (!Number.isFinite(at)) return;
    const clock = manualClockOf(this.ctx);
    if (!clock) this.nextDue = Math.min(this.nextDue, at);
    else if (this.lookedAhead !== at) {
      // On a test's clock: once for that time, when the test moves the clock there.
      this.lookedAhead = at;
      clock.schedule(Math.max(0, at - now), () => this.wake());
    }
  }

  /** Steps left `running` by a dead runner (its lock gone) go back to pending. */
  async recover(): Promise<number> {
    const res = await this.deps.db.execute(sql`
      update automation_steps set status = 'pending', claimed_by = null
       where status = 'running'
         and (claimed_by is null or claimed_by::bigint not in (
               select objid::bigint from pg_locks
                where locktype = 'advisory' and classid = ${LOCK_CLASS} and objsubid = 2 and granted
                  and database = (select oid from pg_database where datname = current_database())))`);
    if ((res.rowCount ?? 0) > 0) this.wake();
    return res.rowCount ?? 0;
  }

  /** One claim: the light steps worked now in one transaction, the others handed to the parallel slots. */
  private async tick(): Promise<number> {
    const now = engineNow(this.ctx);
    const lightOnly = this.heavy.length + this.heavyRunning.size >= this.parallel * 2;
    const res = await this.deps.db.execute<Record<string, unknown>>(sql`
      update automation_steps s
         set status = 'running', claimed_at = ${iso(now)}::timestamptz, claimed_by = ${this.id},
             attempts = s.attempts + case when s.status = 'waiting' then 0 else 1 end
       where s.id in (
         select id from automation_steps
          where status in ('pending', 'waiting') and due_at <= ${iso(now)}::timestamptz
            ${lightOnly ? sql`and type = any(${sql.param([...LIGHT])}::text[])` : sql``}
          order by due_at limit ${BATCH} for update skip locked)
      returning s.id, s.run_id, s.business_id, s.automation_id, s.seq, s.block_id, s.type, s.detail,
                s.attempts, s.answer`);
    const steps: Claimed[] = res.rows.map((r) => ({
      id: Number(r.id),
      run_id: Number(r.run_id),
      business_id: Number(r.business_id),
      automation_id: Number(r.automation_id),
      seq: Number(r.seq),
      block_id: String(r.block_id),
      type: r.type as TActionKind,
      detail: (r.detail ?? {}) as Record<string, unknown>,
      attempts: Number(r.attempts),
      answer: (r.answer as string | null) ?? null,
    }));
    const light = steps.filter((s) => LIGHT.has(s.type));
    this.heavy.push(...steps.filter((s) => !LIGHT.has(s.type)));
    this.pump();
    // The light steps in LANES transactions side by side (each its own connection), so that the database's
    // and this process's work overlap instead of waiting for each other.
    if (light.length) {
      const lanes = Math.min(LANES, Math.ceil(light.length / 20));
      await Promise.all(
        Array.from({ length: lanes }, (_, k) => this.group(light.filter((_, i) => i % lanes === k))),
      );
    }
    return steps.length;
  }

  private pump(): void {
    while (!this.stopping && this.heavyRunning.size < this.parallel && this.heavy.length) {
      const step = this.heavy.shift() as Claimed;
      const p: Promise<void> = this.group([step]).finally(() => {
        this.heavyRunning.delete(p);
        this.pump();
        this.wake();
      });
      this.heavyRunning.add(p);
    }
  }

  /** Works steps in one transaction; if it fails, each alone; a step that fails alone is retried later. */
  private async group(steps: Claimed[]): Promise<void> {
    try {
      await this.transaction(steps);
    } catch (err) {
      if (steps.length > 1) {
        for (const s of steps) await this.group([s]);
        return;
      }
      this.deps.log.error({ err, step: steps[0]?.id }, 'automation step not recorded');
      await this.release(steps[0] as Claimed, err).catch((e) =>
        this.deps.log.error({ err: e }, 'automation step not released'),
      );
    }
  }

  private async transaction(steps: Claimed[]): Promise<void> {
    const deps = this.deps;
    const now = engineNow(this.ctx);
    const afterCommit: (() => unknown)[] = [];
    const outs = await deps.db.transaction(async (tx) => {
      const loaded = await load(deps, tx, steps);
      const outs: Outcome[] = [];
      for (const s of steps) outs.push(await workStep(deps, tx, s, loaded, now, afterCommit));
      await write(tx, outs, now, this.id);
      return outs;
    });
    for (const work of afterCommit) {
      try {
        await work();
      } catch (err) {
        deps.log.error({ err }, 'after-commit work failed');
      }
    }
    this.schedule(outs, now);
  }

  /** Wakes this runner when a step's time comes (on a test's clock: when the test moves it there). */
  private schedule(outs: Outcome[], now: number): void {
    const clock = manualClockOf(this.ctx);
    for (const o of outs) {
      if (o.dueAt === null) continue;
      if (clock) clock.schedule(Math.max(0, o.dueAt - now), () => this.wake());
      else this.nextDue = Math.min(this.nextDue, o.dueAt);
    }
  }

  /** A step whose transaction failed: back to pending a little later, or failed with its run at the last attempt. */
  private async release(step: Claimed, err: unknown): Promise<void> {
    const now = engineNow(this.ctx);
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    const last = step.attempts >= MAX_ATTEMPTS;
    await this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`
        update automation_steps
           set status = ${last ? 'failed' : 'pending'}, error = ${error}, claimed_by = null,
               due_at = ${iso(now + backoffMs(step.attempts))}::timestamptz,
               finished_at = ${last ? iso(now) : null}::timestamptz
         where id = ${step.id} and status = 'running' and claimed_by = ${this.id}`);
      if (last)
        await tx
          .update(automationRuns)
          .set({ status: 'failed', finished_at: new Date(now), updated_at: new Date() })
          .where(and(inArray(automationRuns.id, [step.run_id]), inArray(automationRuns.status, LIVE)));
    });
    if (!last)
      this.schedule([{ ...ended(step, 'skipped', null, null), dueAt: now + backoffMs(step.attempts) }], now);
  }
}
