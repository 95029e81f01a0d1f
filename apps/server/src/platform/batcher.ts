// Adaptive micro-batching: items added while a batch is being worked wait for the next one, so at low
// load every item is worked at once (a batch of one, no added wait) and under load the batches grow to
// what arrives during one batch's work. `maxInFlight` batches run at a time; `waitMs` optionally holds
// a batch open a little longer to gather more. A batch's failure rejects each of its items' promises.

export type Batcher<T, R> = {
  /** Queues an item; resolves with its result once its batch is done. */
  add(item: T): Promise<R>;
  /** Resolves once nothing is queued or running (tests, shutdown). */
  idle(): Promise<void>;
};

/**
 * A wait that gathers a batch only while items come together (the batch before held more than one): a lone
 * item is worked at once, a stream waits `ms` to make bigger batches (issue 27).
 */
export const gatherWhileBusy =
  (ms: number) =>
  (lastBatchSize: number): number =>
    lastBatchSize > 1 ? ms : 0;

export function createBatcher<T, R>(opts: {
  /** Works a batch; answers one result per item, in order. */
  run: (items: T[]) => Promise<R[]>;
  maxBatch?: number;
  maxInFlight?: number;
  /**
   * How long a batch gathers: a number, or a function asked each time with the size of the batch before
   * (a wait that adapts to the work: gather only while items come together, or longer after a long run).
   */
  waitMs?: number | ((lastBatchSize: number) => number);
}): Batcher<T, R> {
  const maxBatch = opts.maxBatch ?? 500;
  const maxInFlight = opts.maxInFlight ?? 1;
  const waitOf = opts.waitMs ?? 0;
  type Entry = { item: T; resolve: (r: R) => void; reject: (e: unknown) => void };
  let queue: Entry[] = [];
  let running = 0;
  let scheduled = false;
  let lastBatchSize = 0;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = () => {
    if (running === 0 && queue.length === 0 && !scheduled) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  const pump = () => {
    scheduled = false;
    while (running < maxInFlight && queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      lastBatchSize = batch.length;
      running += 1;
      void opts
        .run(batch.map((e) => e.item))
        .then(
          (results) => {
            batch.forEach((e, i) => {
              e.resolve(results[i] as R);
            });
          },
          (err: unknown) => {
            for (const e of batch) e.reject(err);
          },
        )
        .finally(() => {
          running -= 1;
          schedule();
          settleIdle();
        });
    }
    settleIdle();
  };

  const schedule = () => {
    if (scheduled || queue.length === 0 || running >= maxInFlight) return;
    scheduled = true;
    const waitMs = typeof waitOf === 'function' ? waitOf(lastBatchSize) : waitOf;
    // setImmediate lets every item of the current I/O turn (e.g. one commit's events) join the batch.
    if (waitMs > 0) setTimeout(pump, waitMs);
    else setImmediate(pump);
  };

  return {
    add(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        schedule();
      });
    },
    idle() {
      if (running === 0 && queue.length === 0 && !scheduled) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}

/**
 * A listener's batcher of one business's events (a batch of inbound texts is announced at once): `run`
 * gets each business's items of a batch, businesses concurrently; one business's failure is logged
 * (`onError`) and spares the others. `add` resolves once its batch is done, so a listener awaiting it
 * finishes with its event's work as before.
 */
export function businessBatcher<T extends { businessId: number }>(opts: {
  run: (items: T[]) => Promise<void>;
  onError: (err: unknown, items: T[]) => void;
  maxBatch?: number;
}): Batcher<T, void> {
  return createBatcher<T, void>({
    run: async (items) => {
      const groups = new Map<number, T[]>();
      for (const item of items) {
        const list = groups.get(item.businessId);
        if (list) list.push(item);
        else groups.set(item.businessId, [item]);
      }
      await Promise.all(
        [...groups.values()].map((list) => opts.run(list).catch((err: unknown) => opts.onError(err, list))),
      );
      return items.map(() => undefined);
    },
    maxBatch: opts.maxBatch ?? 1000,
  });
}
