import { describe, expect, it, vi } from 'vitest';
import { queryClient } from './query-client.ts';
import { keys } from './query-keys.ts';

// The auth store reads the browser's storage when loaded (no DOM here: an empty one).
const memory = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (k: string) => memory.get(k) ?? null,
  setItem: (k: string, v: string) => memory.set(k, v),
  removeItem: (k: string) => memory.delete(k),
});
const { dispatchRealtime } = await import('./realtime.ts');

// An inbound MMS is announced (new_message) before its media are fetched; message_updated follows with
// them (ADR 049): the open conversation refetches, so the image appears without a reload.
describe('message_updated', () => {
  it("refreshes that conversation's history and the conversation lists", async () => {
    const history = [...keys.inbox.conversation(5), { page: 1 }];
    const other = keys.inbox.conversation(6);
    const list = [...keys.inbox.lists(), 'x'];
    for (const k of [history, other, list]) queryClient.setQueryData(k, 1);
    dispatchRealtime({ type: 'message_updated', data: { id: 1, contact: 5, message: { id: 1 } } });
    const stale = (k: readonly unknown[]) => queryClient.getQueryState(k)?.isInvalidated ?? false;
    await expect.poll(() => stale(history)).toBe(true);
    expect(stale(list)).toBe(true);
    expect(stale(other)).toBe(false);
  });
});
