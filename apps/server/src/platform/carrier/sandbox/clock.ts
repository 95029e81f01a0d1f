/**
 * The sandbox's sense of time. Everything the emulator does "later" (status callbacks, ringing,
 * timeouts) is scheduled on a SandboxClock, so tests run time fast with a ManualClock instead of
 * sleeping.
 */
export interface SandboxClock {
  now(): number;
  /** Run `task` after `ms` milliseconds of this clock's time. */
  schedule(ms: number, task: () => Promise<void> | void): void;
}

/** Real time: setTimeout; a failing task is handed to `onError`. */
export function realClock(onError: (error: unknown) => void = () => {}): SandboxClock {
  return {
    now: () => Date.now(),
    schedule(ms, task) {
      const timer = setTimeout(() => {
        Promise.resolve().then(task).catch(onError);
      }, ms);
      timer.unref?.();
    },
  };
}

type Pending = { at: number; seq: number; task: () => Promise<void> | void };

/**
 * A clock that only moves when told: `advance(ms)` runs every task due within the next `ms`, in time
 * order, awaiting each (and the tasks they schedule) before moving on.
 */
export class ManualClock implements SandboxClock {
  private current: number;
  private seq = 0;
  private pending: Pending[] = [];
  readonly errors: unknown[] = [];

  constructor(start = Date.UTC(2026, 0, 5, 15, 0, 0)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  schedule(ms: number, task: () => Promise<void> | void): void {
    this.pending.push({ at: this.current + Math.max(0, ms), seq: this.seq++, task });
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  async advance(ms: number): Promise<void> {
    const until = this.current + ms;
    for (;;) {
      this.pending.sort((a, b) => a.at - b.at || a.seq - b.seq);
      const next = this.pending[0];
      if (!next || next.at > until) break;
      this.pending.shift();
      this.current = Math.max(this.current, next.at);
      try {
        await next.task();
      } catch (error) {
        this.errors.push(error);
      }
    }
    this.current = until;
  }
}
