import type {
  TAgencyAnalytics,
  TAgencyAnalyticsRequest,
  TBusinessAnalytics,
  TBusinessAnalyticsRequest,
} from '@stn/contracts/analytics';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, apiBlob } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/files.ts';
import { keys } from '../../../lib/query-keys.ts';

// The dashboards' calls (issue 24, ADR 081): POST /v1/business/analytics, GET /v1/business/analytics/export
// (CSV), POST /v1/agency/business/analytics. Silent: the screens show a refusal themselves (an Alert, or the
// validation message under the date inputs), so the client does not also toast it.

type Data<T> = { success: true; data: T };

export const BUSINESS_ANALYTICS_PATH = '/v1/business/analytics';
export const AGENCY_ANALYTICS_PATH = '/v1/agency/business/analytics';

export const fetchBusinessAnalytics = async (q: TBusinessAnalyticsRequest) =>
  (await api<Data<TBusinessAnalytics>>(BUSINESS_ANALYTICS_PATH, { method: 'POST', body: q, silent: true }))
    .data;

export const businessAnalyticsQuery = (q: TBusinessAnalyticsRequest) => ({
  queryKey: keys.analytics.business(q),
  queryFn: () => fetchBusinessAnalytics(q),
  // A new range keeps the figures on screen until its own arrive (no skeleton flash on every change).
  placeholderData: keepPreviousData,
  retry: false,
});

export const useBusinessAnalytics = (q: TBusinessAnalyticsRequest) => useQuery(businessAnalyticsQuery(q));

export const fetchAgencyAnalytics = async (q: TAgencyAnalyticsRequest) =>
  (await api<Data<TAgencyAnalytics>>(AGENCY_ANALYTICS_PATH, { method: 'POST', body: q, silent: true })).data;

export const agencyAnalyticsQuery = (q: TAgencyAnalyticsRequest) => ({
  queryKey: keys.analytics.agency(q),
  queryFn: () => fetchAgencyAnalytics(q),
  placeholderData: keepPreviousData,
  retry: false,
});

export const useAgencyAnalytics = (q: TAgencyAnalyticsRequest) => useQuery(agencyAnalyticsQuery(q));

/** The business dashboard's CSV for the same range and installs, saved through the browser. */
export async function downloadBusinessAnalytics(q: TBusinessAnalyticsRequest): Promise<void> {
  const params = new URLSearchParams({ from: q.from, to: q.to });
  if (q.install_ids && q.install_ids.length > 0) params.set('install_ids', q.install_ids.join(','));
  const blob = await apiBlob(`${BUSINESS_ANALYTICS_PATH}/export?${params.toString()}`);
  saveBlob(blob, `analytics-${q.from}-${q.to}.csv`);
}
