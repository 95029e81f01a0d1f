// The sending engine's sense of time (ADR 061). In production: the wall clock. When the process's sandbox
// carrier runs on a ManualClock (tests), the engine runs on it too: its "now" is the sandbox's, and a
// worker waiting for a throttle slot or for the morning (quiet hours) waits on that clock, in lockstep:
// the clock's task that wakes it only ends once the worker waits again (or is done), so a test that
// advances the clock finds every message of that time already handed to the carrier. Tests never sleep.
import { manualClockOf } from '../../platform/engine-clock.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';

/** One worker's clock: `sleep` may only be called by that worker, one wait at a time. */
export type Pacer = {
  now(): number;
  /** True when time is a test's: a wait of hours is waited, not handed to a later job. */
  readonly virtual: boolean;
  sleep(ms: number): Promise<void>;
  /** The worker is done: a clock task waiting for its next wait may end. */
  done(): void;
};

let sleeping = 0;
/** Workers waiting on a ManualClock now (tests advance the clock once every worker waits). */
export const sleepingWorkers = () => sleeping;

export function pacerFor(ctx: Ctx): Pacer {
  const clock = manualClockOf(ctx);
  if (!clock) {
    return {
      now: () => Date.now(),
      virtual: false,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
      done: () => undefined,
    };
  }
  let running: (() => void) | null = null;
  const release = () => {
    const r = running;
    running = null;
    r?.();
  };
  return {
    now: () => clock.now(),
    virtual: true,
    sleep(ms) {
      release();
      sleeping++;
      return new Promise<void>((resolve) => {
        clock.schedule(ms, () => {
          const paused = new Promise<void>((r) => {
            running = r;
          });
          sleeping--;
          resolve();
          return paused;
        });
      });
    },
    done: release,
  };
}
