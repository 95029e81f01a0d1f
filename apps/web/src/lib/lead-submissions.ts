import type { TLeadSubmission } from '@stn/contracts/leadforms';
import { useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { keys } from './query-keys.ts';

// A contact's lead submissions, shown on the contact's page (GET /v1/contacts/{id}/leads: whoever sees the
// contact) and in the inbox's conversation (GET /v1/chats/contacts/{id}/leads: whoever sees the
// conversation, an SMS agent too) as Target kind Lead = 3 (spec 000 §9). Both features read them here:
// features do not import each other (issue 21, ADR 074).

/** The newest 50 submissions of a contact, as its page (`contact`) or its conversation (`inbox`) reads them. */
export function useContactLeads(contactId: number | null, via: 'contact' | 'inbox') {
  return useQuery({
    queryKey: keys.leadSubmissions.contact(contactId ?? 0),
    enabled: Boolean(contactId),
    retry: false,
    queryFn: async () =>
      (
        await api<{ data: TLeadSubmission[] }>(
          via === 'inbox' ? `/v1/chats/contacts/${contactId}/leads` : `/v1/contacts/${contactId}/leads`,
          { query: { perPage: 50 }, silent: true },
        )
      ).data,
  });
}
