import { Text } from '@mantine/core';
import type { TAgency } from '@stn/contracts/agencies';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/load-state.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { useOwnAgency } from './api/agency-settings.ts';

/** Loads the signed-in user's agency, then renders its settings form (made once from the loaded agency). */
export function WithOwnAgency({ children }: { children: (agency: TAgency) => ReactNode }) {
  const { t } = useTranslation();
  const { user } = useAuth();
  const agency = useOwnAgency(user?.agency?.id ?? 0);
  if (agency.data) return <>{children(agency.data)}</>;
  if (agency.isError) return <Text c="red">{t('agency.common.load_failed')}</Text>;
  return <Loading />;
}

/** A plain object from the agency's free-form JSON, or {}. */
export function objectOf(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

export const textOf = (value: unknown) => (typeof value === 'string' ? value : '');
