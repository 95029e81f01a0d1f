import type { TAiDraftRequest, TAiDraftResponse } from '@stn/contracts/ai';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

// AI drafts (spec 001 POST /v1/businesses/generate-ai-content, ADR 086): refusals (AI off, plan, monthly
// limit) are toasted by the API client.

export const AI_DRAFT_PATH = '/v1/businesses/generate-ai-content';

export function useAiDraft() {
  return useMutation({
    mutationFn: async (body: TAiDraftRequest) =>
      (await api<TAiDraftResponse>(AI_DRAFT_PATH, { method: 'POST', body })).data.draft,
  });
}
