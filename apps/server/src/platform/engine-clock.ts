// The engines' sense of time (ADRs 061, 068, 073): the wall clock, or the ManualClock of the process's
// sandbox carrier when it runs on one (tests, SANDBOX_CLOCK=manual). The broadcasts and automations engines
// take every "now" and "due" from here, never from SQL's now(), so moving that clock makes their waits due.
import { ManualClock } from './carrier/sandbox/clock.ts';
import type { Ctx } from './tenancy/context.ts';

/** The sandbox's manual clock when the process's sandbox runs on one, else null (the wall clock). */
export function manualClockOf(ctx: Ctx): ManualClock | null {
  const clock = ctx.deps.carrier.sandbox?.clock;
  return clock instanceof ManualClock ? clock : null;
}

/** Now on the engines' clock, in ms. */
export function engineNow(ctx: Ctx): number {
  return manualClockOf(ctx)?.now() ?? Date.now();
}
