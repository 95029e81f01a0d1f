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
