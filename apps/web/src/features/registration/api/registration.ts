import type { TInstall } from '@stn/contracts/installs';
import type {
  TCampaignInput,
  TCampaignResponse,
  TCarrierProfile,
  TProfileInput,
  TProfileProblem,
  TTollfreeInput,
  TTollfreeResponse,
} from '@stn/contracts/registration';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { loadProfile } from '../../../lib/session.ts';

// SMS registration (issue 26, ADR 092): the agency's carrier (TrustHub) customer profiles, its A2P brand and
// campaign, and the toll-free verification of a business's install number. Every call that can change what
// the agency banners read (agency.properties twProfileSid / twCampaignSid) reads the profile again, so the
// banner follows without a reload.

type Data<T> = { success: true; message?: string; data: T };

export const registrationKeys = {
  profiles: ['twilio-profiles'] as const,
  profile: (id: number) => ['twilio-profiles', 'detail', id] as const,
  campaign: ['twilio-campaign'] as const,
  tollfree: (installId: number) => ['tollfree-verification', installId] as const,
  installs: ['installs', 'registration'] as const,
};

const PROFILES = '/v1/twilio/profiles';
/** While the carrier is deciding, a screen reads the status again every half minute (the sync job runs each minute). */
const PENDING_POLL_MS = 30_000;

/** The signed-in user's profile again (the banners), quietly: a failure leaves the screen as it is. */
const refreshProfile = () => void loadProfile().catch(() => undefined);

function profileChanged(profile: TCarrierProfile) {
  queryClient.setQueryData(registrationKeys.profile(profile.id), profile);
  void queryClient.invalidateQueries({ queryKey: registrationKeys.profiles });
}

export const profilesQuery = queryOptions({
  queryKey: registrationKeys.profiles,
  queryFn: async () => (await api<Data<TCarrierProfile[]>>(PROFILES, { silent: true })).data,
});

export const useProfiles = () =>
  useQuery({
    ...profilesQuery,
    refetchInterval: (q) =>
      q.state.data?.some((p) => p.status === 'pending-review' || p.status === 'in-review')
        ? PENDING_POLL_MS
        : false,
  });

export function useProfile(id: number) {
  return useQuery({
    queryKey: registrationKeys.profile(id),
    queryFn: async () => (await api<Data<TCarrierProfile>>(`${PROFILES}/${id}`, { silent: true })).data,
    enabled: id > 0,
  });
}

/** POST /profiles: a new draft, or (with `id`) the changes to a draft or rejected one. */
export async function saveProfile(body: TProfileInput): Promise<TCarrierProfile> {
  const res = await api<Data<TCarrierProfile>>(PROFILES, { method: 'POST', body });
  profileChanged(res.data);
  return res.data;
}

export type Evaluation = { compliant: boolean; problems: TProfileProblem[]; profile: TCarrierProfile };

/** POST /profiles/:id/validate: what the carrier still misses (nothing is submitted). */
export async function validateProfile(id: number): Promise<Evaluation> {
  const res = await api<Data<Evaluation>>(`${PROFILES}/${id}/validate`, {
    method: 'POST',
    body: {},
    silent: true,
  });
  profileChanged(res.data.profile);
  return res.data;
}

/** POST /profiles/:sid/register: submits the profile for the carrier's review (422 with problems if not ready). */
export async function registerProfile(id: number): Promise<TCarrierProfile> {
  const res = await api<Data<TCarrierProfile>>(`${PROFILES}/${id}/register`, { method: 'POST', body: {} });
  profileChanged(res.data);
  refreshProfile();
  return res.data;
}

/** POST /profiles/:id/set-mian (the product's spelling): the agency's primary profile. */
export async function setPrimaryProfile(id: number): Promise<TCarrierProfile> {
  const res = await api<Data<TCarrierProfile>>(`${PROFILES}/${id}/set-mian`, { method: 'POST', body: {} });
  void queryClient.invalidateQueries({ queryKey: registrationKeys.profiles });
  refreshProfile();
  return res.data;
}

export async function deleteProfile(id: number): Promise<void> {
  await api(`${PROFILES}/${id}`, { method: 'DELETE' });
  queryClient.removeQueries({ queryKey: registrationKeys.profile(id) });
  void queryClient.invalidateQueries({ queryKey: registrationKeys.profiles });
  refreshProfile();
}

/** A call on a profile row (validate, register, set primary, delete), with its pending state. */
export function useProfileAction<A>(fn: (id: number) => Promise<A>) {
  return useMutation({ mutationFn: fn });
}

// ------------------------------------------------------------------------------------- campaign

export const campaignQuery = queryOptions({
  queryKey: registrationKeys.campaign,
  queryFn: async () => (await api<Data<TCampaignResponse>>('/v1/twilio/campaign', { silent: true })).data,
});

export const useCampaign = () =>
  useQuery({
    ...campaignQuery,
    refetchInterval: (q) => {
      const status = q.state.data?.registration?.status;
      return status === 'brand-pending' || status === 'campaign-pending' ? PENDING_POLL_MS : false;
    },
  });

function campaignChanged(data: TCampaignResponse) {
  queryClient.setQueryData(registrationKeys.campaign, data);
  void queryClient.invalidateQueries({ queryKey: registrationKeys.profiles });
  refreshProfile();
}

/** POST /register-campaign: the brand and the campaign (new, or a failed one fixed and sent again). */
export async function registerCampaign(body: TCampaignInput): Promise<TCampaignResponse> {
  const res = await api<Data<TCampaignResponse>>('/v1/twilio/register-campaign', { method: 'POST', body });
  campaignChanged(res.data);
  return res.data;
}

/** POST /sync-campaign: asks the carrier for the brand's and the campaign's statuses now. */
export function useSyncCampaign() {
  return useMutation({
    mutationFn: async () =>
      (await api<Data<TCampaignResponse>>('/v1/twilio/sync-campaign', { method: 'POST', body: {} })).data,
    onSuccess: campaignChanged,
  });
}

// ------------------------------------------------------------------------------------- toll-free

export function useTollfree(installId: number) {
  return useQuery({
    queryKey: registrationKeys.tollfree(installId),
    refetchInterval: (q) => {
      const status = q.state.data?.verification?.status;
      return status === 'PENDING_REVIEW' || status === 'IN_REVIEW' ? PENDING_POLL_MS : false;
    },
    queryFn: async () =>
      (
        await api<Data<TTollfreeResponse>>(`/v1/installs/${installId}/tollfree-verification`, {
          silent: true,
        })
      ).data,
  });
}

export async function submitTollfree(installId: number, body: TTollfreeInput): Promise<TTollfreeResponse> {
  const res = await api<Data<TTollfreeResponse>>(`/v1/installs/${installId}/tollfree-verification`, {
    method: 'POST',
    body,
  });
  queryClient.setQueryData(registrationKeys.tollfree(installId), res.data);
  void queryClient.invalidateQueries({ queryKey: registrationKeys.campaign });
  return res.data;
}

/** The business's active installs (names for its numbers): one page of the largest size. */
export function useInstallNames() {
  return useQuery({
    queryKey: registrationKeys.installs,
    queryFn: async () =>
      (
        await api<Data<TInstall[]>>('/v1/installs', {
          query: { status: 'active', perPage: 100 },
          silent: true,
        })
      ).data,
  });
}
