import type { ZWhitelabelListItem } from '@stn/contracts/agencies';
import type { z } from '@stn/contracts/zod';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// White-label entries (spec 001 §7 "Whitelabel and international").

export type WhitelabelItem = z.infer<typeof ZWhitelabelListItem>;

export const WHITELABELS_PATH = '/v1/whitelabels';

export function useRequestCertificate() {
  return useMutation({
    mutationFn: (id: number) =>
      api<{ success: true; message: string; data: WhitelabelItem }>(`${WHITELABELS_PATH}/${id}/cert`, {
        method: 'POST',
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.whitelabels.all }),
  });
}
