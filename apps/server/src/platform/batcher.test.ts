// The micro-batcher (platform/batcher.ts): items that arrive while a batch is worked make the next batch, and a
// wait given as a function is asked afresh for each batch (the analytics rollups wait longer after a long
// rebuild, issue 27).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBatcher } from './batcher.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('createBatcher', () => {
  it('works what arrives during a batch as the next batch, each item getting its own result', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const b = createBatcher<number, number>({
      run: async (items) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items.map((i) => i * 10);
      },
    });
    const first = b.add(1);
    await vi.waitFor(() => expect(batches).toHaveLength(1));
    const later = [b.add(2), b.add(3)];
    release();
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1], [2, 3]]);
    await b.idle();
  });

  it('asks a wait given as a function before each batch, with the size of the batch before, and holds it that long', async () => {
    vi.useFakeTimers();
    const waits = [100, 2000];
    const asked: number[] = [];
    const sizes: number[] = [];
    const ran: number[][] = [];
    const b = createBatcher<number, void>({
      run: async (items) => {
        ran.push(items);
        return items.map(() => undefined);
      },
      waitMs: (lastBatchSize) => {
        sizes.push(lastBatchSize);
        const w = waits[asked.length] ?? 0;
        asked.push(w);
        return w;
      },
    });
    const one = b.add(1);
    await vi.advanceTimersByTimeAsync(99);
    expect(ran).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await one;
    expect(ran).toEqual([[1]]);
    const two = b.add(2);
    const three = b.add(3);
    await vi.advanceTimersByTimeAsync(1999);
    expect(ran).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(1);
    await Promise.all([two, three]);
    expect(ran).toEqual([[1], [2, 3]]);
    expect(asked).toEqual([100, 2000]);
    expect(sizes).toEqual([0, 1]);
  });
});
