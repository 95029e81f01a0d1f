import type { TLeadSubmission } from '@stn/contracts/leadforms';
import { describe, expect, it } from 'vitest';
import { withLeads } from './lead-timeline.ts';

const lead = (id: number, at: string): TLeadSubmission => ({
  id,
  lead_form_id: 1,
  form_name: 'Quote',
  embedded_form_id: null,
  install_id: 1,
  contact_id: 9,
  target_kind: 3,
  source: 'widget',
  language: 'en',
  answers: [],
  consents: [],
  tags: [],
  page_url: null,
  created_at: at,
});

type Item = { kind: 'message' | 'call'; at: string; n: number };
const item = (n: number, at: string, kind: Item['kind'] = 'message'): Item => ({ kind, at, n });

describe("a conversation with the contact's lead submissions", () => {
  it('merges them by time, oldest first', () => {
    const merged = withLeads(
      [item(1, '2025-01-01T10:00:00Z'), item(2, '2025-01-01T12:00:00Z', 'call')],
      [lead(7, '2025-01-01T11:00:00.000Z'), lead(8, '2025-01-01T09:00:00Z')],
    );
    expect(merged.map((i) => (i.kind === 'lead' ? `l${i.lead.id}` : `${i.kind[0]}${i.n}`))).toEqual([
      'l8',
      'm1',
      'l7',
      'c2',
    ]);
  });

  it('puts a lead before a message of the same instant (the lead started it), keeps the rest in order', () => {
    const at = '2025-01-01T10:00:00Z';
    const merged = withLeads([item(1, at), item(2, at)], [lead(5, '2025-01-01T10:00:00.000Z')]);
    expect(merged.map((i) => i.kind)).toEqual(['lead', 'message', 'message']);
    expect(merged.slice(1).map((i) => (i.kind === 'lead' ? 0 : i.n))).toEqual([1, 2]);
  });

  it('answers the conversation as it is when there are no leads, and never doubles one', () => {
    const items = [item(1, '2025-01-01T10:00:00Z')];
    expect(withLeads(items, [])).toEqual(items);
    const withOne = withLeads(items, [lead(3, '2025-01-02T00:00:00Z')]);
    expect(withLeads(withOne, [lead(3, '2025-01-02T00:00:00Z')])).toHaveLength(2);
  });
});
