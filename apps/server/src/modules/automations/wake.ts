// How new work reaches the runners (ADR 068): this process's runner is woken directly, the others by a
// NOTIFY on CHANNEL (sent in the transaction that made the work, so delivered on its commit).
import { sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';

export const CHANNEL = 'automation_steps';

/** What the engine needs of a runner to wake it. */
export type Wakeable = { id: number; wake(): void; recover(): Promise<number> };

/** The runner of each app (a process has one; a test process may hold several apps). */
export const runners = new WeakMap<Deps, Wakeable>();

/** Wakes this process's runner (new steps are due now). */
export function wakeRunner(ctx: Ctx): void {
  runners.get(ctx.deps)?.wake();
}

/** The runner of this process, when it works steps (tests: recover now). */
export function runnerOf(ctx: Ctx): Wakeable | undefined {
  return runners.get(ctx.deps);
}

/** Tells every runner, in the context's transaction, that steps are due: delivered on commit. */
export async function notifyRunners(ctx: Ctx): Promise<void> {
  await ctx.db.execute(sql`select pg_notify(${CHANNEL}, '')`);
}
