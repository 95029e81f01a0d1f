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

// A lead form sent in (issue 21) shows in the contact's timeline without a reload.
describe('conversation_lead', () => {
  it("refreshes that contact's submissions and conversation, and the lists", async () => {
    const leads = keys.leadSubmissions.contact(5);
    const otherLeads = keys.leadSubmissions.contact(6);
    const history = keys.inbox.conversation(5);
    const list = [...keys.inbox.lists(), 'x'];
    for (const k of [leads, otherLeads, history, list]) queryClient.setQueryData(k, 1);
    dispatchRealtime({ type: 'conversation_lead', data: { contact: 5, install: 1, submission: 3 } });
    const stale = (k: readonly unknown[]) => queryClient.getQueryState(k)?.isInvalidated ?? false;
    await expect.poll(() => stale(leads)).toBe(true);
    expect(stale(history)).toBe(true);
    expect(stale(list)).toBe(true);
    expect(stale(otherLeads)).toBe(false);
  });
});

// A broadcast's progress (issue 19) moves its row in the list without a refetch.
describe('broadcast_progress', () => {
  it("puts the event's status and counts into the cached list rows and the broadcast's record", () => {
    const counts = (sent: number) => ({ total: 10, pending: 10 - sent, sent, delivered: 0, failed: 0 });
    const list = [...keys.broadcasts.lists(), { page: 1 }];
    queryClient.setQueryData(list, {
      data: [
        { id: 1, status: 'scheduled', counts: counts(0) },
        { id: 2, status: 'draft', counts: counts(0) },
      ],
      meta: { total: 2 },
    });
    queryClient.setQueryData(keys.broadcasts.detail(1), { id: 1, status: 'scheduled', counts: counts(0) });
    dispatchRealtime({ type: 'broadcast_progress', data: { id: 1, status: 'sending', counts: counts(4) } });
    expect(queryClient.getQueryData(list)).toEqual({
      data: [
        { id: 1, status: 'sending', counts: counts(4) },
        { id: 2, status: 'draft', counts: counts(0) },
      ],
      meta: { total: 2 },
    });
    expect(queryClient.getQueryData(keys.broadcasts.detail(1))).toEqual({
      id: 1,
      status: 'sending',
      counts: counts(4),
    });
  });
});

// A call moved or a visitor opened the widget (ADR 083): the live card refetches, nothing else does.
describe('live_data', () => {
  it('refreshes the live view alone', async () => {
    const live = keys.liveData.all;
    const calls = keys.calls.list();
    for (const k of [live, calls]) queryClient.setQueryData(k, 1);
    dispatchRealtime({ type: 'live_data' });
    const stale = (k: readonly unknown[]) => queryClient.getQueryState(k)?.isInvalidated ?? false;
    await expect.poll(() => stale(live)).toBe(true);
    expect(stale(calls)).toBe(false);
  });
});
