/**
 * The sandbox's sense of time. Everything the emulator does "later" (status callbacks, ringing,
 * timeouts, the length of a <Say>) is scheduled on a SandboxClock, so tests run time fast with a
 * ManualClock instead of sleeping.
 */
export interface SandboxClock {
  now(): number;
  /**
   * Run `task` after `ms` milliseconds of this clock's time. A task may await short work (a webhook)
   * but must not wait for anything that itself waits on the clock (a call's TwiML): it starts such work
   * without awaiting it, or a ManualClock would wait for itself.
   */
  schedule(ms: number, task: () => Promise<void> | void): void;
  /**
   * Work started outside a scheduled task (a webhook on its way, a phone answered by a test): a
   * ManualClock waits for it in settle() and advance(); a real clock only reports its failure.
   */
  track(work: Promise<unknown>): void;
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
    track(work) {
      work.catch(onError);
    },
  };
}

type Pending = { at: number; seq: number; task: () => Promise<void> | void };

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A clock that only moves when told. `advance(ms)` runs every task due within the next `ms`, in time
 * order; between tasks it settles: awaits the work in flight (webhooks delivered in process, with the
 * product's handlers behind them) and lets every continuation run, so what a task starts is done (or
 * scheduled on this clock) before time moves on. `settle()` does the same without moving time.
 */
/** How often a running manual clock catches up with real time. */
const TICK_MS = 100;

export class ManualClock implements SandboxClock {
  private current: number;
  private seq = 0;
  private pending: Pending[] = [];
  private inFlight = new Set<Promise<unknown>>();
  readonly errors: unknown[] = [];

  private ticker: NodeJS.Timeout | null = null;

  /**
   * `running`: the clock also goes on with real time (checked every `TICK_MS`), and a task due now runs at
   * once: the manual clock of a running server (SANDBOX_CLOCK=manual, ADR 073), where a person or a browser
   * test moves it ahead with `advance` and nobody calls `settle()`. Tests leave it off: their time only
   * moves when they say.
   */
  constructor(
    start = Date.UTC(2026, 0, 5, 15, 0, 0),
    private readonly opts: { running?: boolean } = {},
  ) {
    this.current = start;
    if (opts.running) {
      let last = Date.now();
      const tick = async () => {
        const now = Date.now();
        await this.advance(now - last);
        last = now;
        if (this.ticker) this.ticker = setTimeout(tick, TICK_MS).unref();
      };
      this.ticker = setTimeout(tick, TICK_MS).unref();
    }
  }

  /** Stops a running clock's real-time ticks (the app closing). */
  stop(): void {
    if (this.ticker) clearTimeout(this.ticker);
    this.ticker = null;
  }

  now(): number {
    return this.current;
  }

  schedule(ms: number, task: () => Promise<void> | void): void {
    this.pending.push({ at: this.current + Math.max(0, ms), seq: this.seq++, task });
    if (this.opts.running && ms <= 0) setImmediate(() => void this.settle());
  }

  track(work: Promise<unknown>): void {
    const p = work.then(
      () => undefined,
      (error: unknown) => {
        this.errors.push(error);
      },
    );
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Milliseconds until the next scheduled task, or null when nothing is scheduled. */
  get nextIn(): number | null {
    if (this.pending.length === 0) return null;
    return Math.max(0, Math.min(...this.pending.map((p) => p.at)) - this.current);
  }

  /** Runs whatever is due now and waits for the work in flight, until nothing is left to do now. */
  async settle(): Promise<void> {
    await this.runUntil(this.current);
  }

  async advance(ms: number): Promise<void> {
    await this.runUntil(this.current + Math.max(0, ms));
  }

  /** Advances until nothing is scheduled any more (at most `limitMs`), e.g. to play a call to its end. */
  async runAll(limitMs = 3_600_000): Promise<void> {
    const until = this.current + limitMs;
    for (;;) {
      await this.quiet();
      const next = this.nextIn;
      if (next === null || this.current + next > until) break;
      await this.runUntil(this.current + next);
    }
  }

  private async quiet(): Promise<void> {
    for (let i = 0; i < 10_000; i++) {
      await macrotask();
      if (this.inFlight.size === 0) {
        await macrotask();
        if (this.inFlight.size === 0) return;
      }
      await Promise.all([...this.inFlight]);
    }
  }

  private async runUntil(until: number): Promise<void> {
    for (;;) {
      await this.quiet();
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
    this.current = Math.max(this.current, until);
  }
}
