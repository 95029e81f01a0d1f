import type { TLeadSubmission } from '@stn/contracts/leadforms';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { keys } from './query-keys.ts';

// A contact's lead submissions (GET /v1/leadSubmissions?contact_id=), shown on the contact's page and in
// the inbox's conversation (spec 000 §9 Target kind Lead = 3). Both features read them here: features do
// not import each other (issue 21).

/** The newest 50 submissions of a contact; none for a user who may not read them (`enabled` false). */
export function useContactLeads(contactId: number | null, enabled = true) {
  return useQuery({
    queryKey: keys.leadSubmissions.contact(contactId ?? 0),
    enabled: enabled && Boolean(contactId),
    retry: false,
    queryFn: async () =>
      (
        await api<{ data: TLeadSubmission[] }>('/v1/leadSubmissions', {
          query: { contact_id: contactId ?? 0, perPage: 50 },
          silent: true,
        })
      ).data,
  });
}

/** A lead submission as an item of a conversation's timeline. */
export type LeadItem = { kind: 'lead'; at: string; lead: TLeadSubmission };

/**
 * A conversation (messages, calls) with the contact's submissions merged in by time, oldest first (a
 * submission at the same instant as a message comes first: the lead is what started it). A lead already
 * among the items (should the server send them one day) is not doubled.
 */
export function withLeads<T extends { kind: string; at: string }>(
  items: readonly T[],
  leads: readonly TLeadSubmission[],
): (T | LeadItem)[] {
  const isLead = (i: T | LeadItem): i is LeadItem => i.kind === 'lead' && 'lead' in i;
  const present = new Set(items.flatMap((i) => (isLead(i) ? [i.lead.id] : [])));
  const added: LeadItem[] = leads
    .filter((l) => !present.has(l.id))
    .map((lead) => ({ kind: 'lead', at: lead.created_at, lead }));
  if (added.length === 0) return [...items];
  const rank = (i: T | LeadItem) => (i.kind === 'lead' ? 0 : 1);
  return [...items, ...added]
    .map((item, order) => ({ item, order, time: Date.parse(item.at) }))
    .sort((a, b) => a.time - b.time || rank(a.item) - rank(b.item) || a.order - b.order)
    .map((x) => x.item);
}
