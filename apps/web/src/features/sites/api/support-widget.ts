import type {
  TSupportWidgetSettings,
  TSupportWidgetSettingsRequest,
  ZSupportInstallList,
} from '@stn/contracts/support';
import type { z } from '@stn/contracts/zod';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';

// The platform's support chat (issue 11): which installs agencies and main-agency businesses get.

const PATH = '/v1/settings/support-widget';

export function useSupportWidgetSettings() {
  return useQuery({
    queryKey: keys.supportWidget.settings(),
    queryFn: async () => (await api<{ success: true; data: TSupportWidgetSettings }>(PATH)).data,
  });
}

/** The installs the admin may pick, searched by install, website or business name. */
export function useSupportInstallChoices(keyword: string) {
  return useQuery({
    queryKey: keys.supportWidget.choices(keyword),
    queryFn: async () =>
      (
        await api<z.infer<typeof ZSupportInstallList>>(`${PATH}/installs`, {
          query: { keyword, perPage: 20 },
          silent: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

export function useSaveSupportWidget() {
  return useMutation({
    mutationFn: (body: TSupportWidgetSettingsRequest) =>
      api<{ success: true; message: string; data: TSupportWidgetSettings }>(PATH, { method: 'PUT', body }),
    onSuccess: (res) => queryClient.setQueryData(keys.supportWidget.settings(), res.data),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keys.supportWidget.all }),
  });
}
