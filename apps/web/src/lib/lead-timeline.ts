import type { TLeadSubmission } from '@stn/contracts/leadforms';

// A contact's lead submissions in the inbox's conversation (Target kind Lead = 3, issue 21): the server's
// history has messages and calls; the web app merges the submissions in by time.

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
