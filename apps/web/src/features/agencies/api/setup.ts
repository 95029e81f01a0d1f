import type { TTwilioSetupInput } from '@stn/contracts/agencies';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { loadProfile } from '../../../lib/session.ts';

// Agency Setup (spec 000 §4): PUT /v1/agencies/twilio-config with the agency's own Twilio account or
// { sandbox: true }. The profile is loaded again afterwards, so the guards see has_twilio_setup and move on.

export function useAgencySetup() {
  return useMutation({
    mutationFn: (body: TTwilioSetupInput) =>
      api<{ success: true }>('/v1/agencies/twilio-config', { method: 'PUT', body }),
    onSuccess: () => loadProfile(),
  });
}
