import type {
  TEmailAccount,
  TEmailAccountInput,
  TMailIntegration,
  TMailIntegrationInput,
  TMailIntegrationType,
} from '@stn/contracts/own-mail';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { type Data, resourceCalls } from '../../lib/resource-api.ts';

// The business's own e-mail (ADR 090): its SMTP e-mail accounts, its SendGrid integration, and the agency's
// own SMTP account (`/v1/agencies/integartions`, spelling as in the product). The e-mail card of the business
// settings (features/businesses/mail-card.tsx) reads the same resources under the same keys.

export const mailKeys = {
  accounts: {
    all: ['email-accounts'] as const,
    detail: (id: number) => ['email-accounts', 'detail', id] as const,
  },
  integrations: {
    all: ['business-integrations'] as const,
    detail: (id: number) => ['business-integrations', 'detail', id] as const,
  },
  agency: {
    all: ['agency-integrations'] as const,
    detail: (id: number) => ['agency-integrations', 'detail', id] as const,
  },
};

export const emailAccounts = resourceCalls<TEmailAccount, TEmailAccountInput>({
  path: '/v1/email-accounts',
  keys: mailKeys.accounts,
  deleteRefresh: 'onSuccess',
});

export const mailIntegrations = resourceCalls<TMailIntegration, TMailIntegrationInput>({
  path: '/v1/businesses/integrations',
  keys: mailKeys.integrations,
  deleteRefresh: 'onSuccess',
});

export const agencyMailAccounts = resourceCalls<TEmailAccount, TEmailAccountInput>({
  path: '/v1/agencies/integartions',
  keys: mailKeys.agency,
  deleteRefresh: 'onSuccess',
});

/** Every row of a resource (the lists are short: a few accounts). */
export function useMailList<T>(path: string, key: readonly unknown[], enabled = true) {
  return useQuery({
    queryKey: key,
    queryFn: async () => (await api<Data<T[]>>(path, { silent: true })).data,
    enabled,
  });
}

/** GET /v1/businesses/integrations/types: whether SendGrid is available and what is connected. */
export function useMailTypes() {
  return useMailList<TMailIntegrationType>('/v1/businesses/integrations/types', [
    'business-integrations',
    'types',
  ]);
}
