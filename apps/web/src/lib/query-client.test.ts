import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { FreshQueryClient } from './query-client.ts';

// A list's first fetch in flight when a change invalidates it (ADR 101): the answer from before the
// change must not be the one the screen keeps.

/** A query function whose answers are released by hand, in the order the test chooses. */
function server() {
  const pending: { resolve: (v: string) => void }[] = [];
  let version = 'before';
  return {
    fn: () => {
      const seen = version;
      return new Promise<string>((resolve) => pending.push({ resolve: () => resolve(seen) }));
    },
    change: () => {
      version = 'after';
    },
    answer: (i: number) => pending[i]?.resolve(''),
    get asked() {
      return pending.length;
    },
  };
}

/** Starts a query's first fetch, changes the data, invalidates, then answers the first fetch. */
async function scenario(client: QueryClient) {
  const s = server();
  const key = ['businesses', 'list', 'active', { keyword: 'plumbing' }];
  const first = client.fetchQuery({ queryKey: key, queryFn: s.fn });
  s.change();
  const invalidated = client.invalidateQueries({ queryKey: ['businesses'] });
  s.answer(0);
  // Whatever fetch the client started again is answered too.
  await new Promise((r) => setTimeout(r, 0));
  s.answer(1);
  await invalidated;
  const awaited = await first.catch((e: unknown) => `rejected: ${String(e)}`);
  return { kept: client.getQueryData<string>(key), awaited, asked: s.asked };
}

describe('the query client after a change', () => {
  it('starts again a first fetch in flight, and its caller gets the answer from after the change', async () => {
    const r = await scenario(new FreshQueryClient());
    expect(r.asked).toBe(2);
    expect(r.kept).toBe('after');
    expect(r.awaited).toBe('after');
  });

  it("TanStack's own client keeps the answer from before (why FreshQueryClient exists)", async () => {
    const r = await scenario(new QueryClient());
    expect(r.kept).toBe('before');
  });

  it('leaves a query with nothing in flight to the invalidation as before', async () => {
    const client = new FreshQueryClient();
    client.setQueryData(['businesses', 'list'], 'rows');
    await client.invalidateQueries({ queryKey: ['businesses'] });
    expect(client.getQueryState(['businesses', 'list'])?.isInvalidated).toBe(true);
    expect(client.getQueryState(['businesses', 'list'])?.fetchStatus).toBe('idle');
  });
});
