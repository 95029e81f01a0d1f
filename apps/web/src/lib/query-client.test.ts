import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { FreshQueryClient } from './query-client.ts';

// A list's first fetch in flight when a change invalidates it (ADR 101): the answer from before the
// change must not be the one the screen keeps.

/** A query function whose answers are released by hand, in the order the test chooses. */
function server() {
  const pending: (() => void)[] = [];
  let version = 'before';
  return {
    fn: () => {
      const seen = version;
      return new Promise<string>((resolve) => pending.push(() => resolve(seen)));
    },
    change: () => {
      version = 'after';
    },
    answer: (i: number) => pending[i]?.(),
    get asked() {
      return pending.length;
    },
  };
}

const KEY = ['businesses', 'list', 'active', { keyword: 'plumbing' }];

/** A screen showing the query, whose first fetch is in flight when the data changes and is invalidated. */
async function scenario(client: QueryClient) {
  const s = server();
  const observer = new QueryObserver(client, { queryKey: KEY, queryFn: s.fn });
  const stop = observer.subscribe(() => undefined);
  await vi.waitFor(() => expect(s.asked).toBe(1));
  s.change();
  const invalidated = client.invalidateQueries({ queryKey: ['businesses'] });
  s.answer(0);
  await invalidated;
  return { s, stop, kept: () => client.getQueryData<string>(KEY) };
}

describe('the query client after a change', () => {
  it('asks again once the first fetch in flight is answered, and keeps the answer from after the change', async () => {
    const { s, stop, kept } = await scenario(new FreshQueryClient());
    await vi.waitFor(() => expect(s.asked).toBe(2));
    s.answer(1);
    await vi.waitFor(() => expect(kept()).toBe('after'));
    stop();
  });

  it("TanStack's own client keeps the answer from before (why FreshQueryClient exists)", async () => {
    const { s, stop, kept } = await scenario(new QueryClient());
    await vi.waitFor(() => expect(kept()).toBe('before'));
    // Nothing asks again: the screen would show the rows from before the change.
    await new Promise((r) => setTimeout(r, 0));
    expect(s.asked).toBe(1);
    stop();
  });

  it('asks once more, not once per invalidation, and not again after a failure', async () => {
    const client = new FreshQueryClient();
    let asked = 0;
    let fail!: (e: Error) => void;
    const observer = new QueryObserver(client, {
      queryKey: KEY,
      queryFn: () => {
        asked++;
        return new Promise<string>((_, reject) => {
          fail = reject;
        });
      },
    });
    const stop = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(asked).toBe(1));
    for (let i = 0; i < 5; i++) void client.invalidateQueries({ queryKey: ['businesses'] });
    fail(new Error('down'));
    await vi.waitFor(() => expect(asked).toBe(2));
    fail(new Error('still down'));
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toBe(2);
    stop();
  });

  it('leaves a query with nothing in flight to the invalidation as before', async () => {
    const client = new FreshQueryClient();
    client.setQueryData(['businesses', 'list'], 'rows');
    await client.invalidateQueries({ queryKey: ['businesses'] });
    expect(client.getQueryState(['businesses', 'list'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['businesses', 'list'])?.fetchStatus).toBe('idle');
  });
});
