import type {
  TBusiness,
  TBusinessInfoRequest,
  TBusinessReportRequest,
  TBusinessSettingRequest,
} from '@stn/contracts/businesses';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auth } from '../../../lib/auth-store.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The business's own settings calls (spec 001 §7 "Business"): info, report, notification settings, logo.
// GET /v1/businesses/info reads the business's own record; every save answers it too, and the answer
// replaces the cached record under `businessSettingsKeys.own`.

type MessageData<T> = { success: true; message: string; data: T };

/** The business's own record (BusinessAdmin only: `enabled` false for anyone else). */
export function useOwnBusiness(enabled = true) {
  return useQuery<TBusiness | null>({
    queryKey: keys.businesses.own(),
    queryFn: async () => (await api<{ data: TBusiness }>('/v1/businesses/info', { silent: true })).data,
    enabled,
  });
}

/** Keeps the answer, and the business name of the top bar in step with it. */
function keep(res: MessageData<TBusiness>) {
  queryClient.setQueryData(keys.businesses.own(), res.data);
  const user = auth.get().user;
  if (user?.business && user.business.name !== res.data.name)
    auth.setUser({ ...user, business: { ...user.business, name: res.data.name } });
}

const put =
  <B>(path: string) =>
  (body: B) =>
    api<MessageData<TBusiness>>(path, { method: 'PUT', body });

export function useUpdateBusinessInfo() {
  return useMutation({ mutationFn: put<TBusinessInfoRequest>('/v1/businesses/info'), onSuccess: keep });
}

export function useUpdateBusinessReport() {
  return useMutation({ mutationFn: put<TBusinessReportRequest>('/v1/businesses/report'), onSuccess: keep });
}

export function useUpdateBusinessSetting() {
  return useMutation({ mutationFn: put<TBusinessSettingRequest>('/v1/businesses/setting'), onSuccess: keep });
}

export function useUploadLogo() {
  return useMutation({
    mutationFn: (data: string) =>
      api<MessageData<TBusiness>>('/v1/businesses/image', { method: 'POST', body: { type: 'logo', data } }),
    onSuccess: keep,
  });
}

export function useRemoveLogo() {
  return useMutation({
    mutationFn: () => api<MessageData<TBusiness>>('/v1/businesses/image/logo', { method: 'DELETE' }),
    onSuccess: keep,
  });
}
