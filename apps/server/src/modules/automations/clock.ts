// The engine's sense of time (ADR 068): the wall clock, or the sandbox's ManualClock when the process's
// sandbox runs on one (tests), exactly as the broadcasts' engine does. Every "due" comparison takes this
// now as a parameter, never SQL's now(), so a test that advances the clock makes waits due.
import { ManualClock } from '../../platform/carrier/sandbox/clock.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';

/** The test's clock when the process's sandbox runs on one, else null (the wall clock). */
export function manualClockOf(ctx: Ctx): ManualClock | null {
  const clock = ctx.deps.carrier.sandbox?.clock;
  return clock instanceof ManualClock ? clock : null;
}

/** Now on the engine's clock, in ms. */
export function engineNow(ctx: Ctx): number {
  return manualClockOf(ctx)?.now() ?? Date.now();
}
