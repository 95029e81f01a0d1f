import type { TAgency } from '@stn/contracts/agencies';
import { LIST_MAX_PAGE_SIZE } from '@stn/contracts/constants';
import type { TInstallPick } from '@stn/contracts/installs';
import type { TLeadLanguage } from '@stn/contracts/lead-form-public';
import type { TTemplate } from '@stn/contracts/templates';
import type { TUserSummary } from '@stn/contracts/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client.ts';
import { keys } from './query-keys.ts';

// The pickers several features show (features do not import each other): the business's active installs
// (GET /v1/installs/all), its tags (GET /v1/tags/all), its SMS templates (GET /v1/templates/all), its agents
// of a channel (GET /v1/businesses/users/agents), its team (GET /v1/businesses/users/all), and for platform
// admins the active agencies (GET /v1/agencies).

type Data<T> = { success: true; data: T };

export type AgentChannel = 'sms' | 'voice';

export function useInstallOptions() {
  return useQuery({
    queryKey: keys.installs.picker(),
    queryFn: async () => (await api<Data<TInstallPick[]>>('/v1/installs/all', { silent: true })).data,
  });
}

/** The business's tags (broadcasts' audience and report, automations' blocks and triggers). */
export function useTagOptions() {
  return useQuery({
    queryKey: [...keys.tags.all, 'all'],
    queryFn: async () =>
      (await api<Data<{ id: number; name: string }[]>>('/v1/tags/all', { silent: true })).data,
  });
}

/** The business's active SMS templates (a broadcast's message, an automation's SendMessage). */
export function useSmsTemplateOptions() {
  return useQuery({
    queryKey: [...keys.templates.all, 'all', 'sms'],
    queryFn: async () =>
      (await api<Data<TTemplate[]>>('/v1/templates/all', { query: { provider: 'sms' }, silent: true })).data,
    retry: false,
  });
}

export const agentsQuery = (channel: AgentChannel) =>
  queryOptions({
    queryKey: keys.users.agents(channel),
    queryFn: async () =>
      (await api<Data<TUserSummary[]>>('/v1/businesses/users/agents', { query: { channel }, silent: true }))
        .data,
  });

export function useAgents(channel: AgentChannel) {
  return useQuery(agentsQuery(channel));
}

/**
 * The active agencies, by name, as select options (the first 100). Only platform admins may list them:
 * `enabled` is false elsewhere, so that an agency's screens ask nothing they would be refused.
 */
export function useAgencyOptions(enabled: boolean) {
  return useQuery({
    queryKey: keys.agencies.picker(),
    enabled,
    queryFn: async () =>
      (
        await api<{ data: TAgency[] }>('/v1/agencies', {
          query: { status: 'active', perPage: LIST_MAX_PAGE_SIZE },
          silent: true,
        })
      ).data
        .map((a) => ({ value: String(a.id), label: a.name }))
        .sort((a, b) => a.label.localeCompare(b.label)),
  });
}

export type TTeamMember = { id: number; first_name: string; last_name: string; email: string };

/** The business's active users (a task's assignee, an automation Alert's staff); empty when the caller may not list the team. */
export function useTeamMembers() {
  return useQuery({
    queryKey: [...keys.users.all, 'business', 'team'],
    queryFn: async () =>
      (
        await api<{ data: TTeamMember[] }>('/v1/businesses/users/all', { silent: true }).catch(() => ({
          data: [],
        }))
      ).data,
  });
}

export type TLeadFormPick = { id: number; name: string; languages: TLeadLanguage[] };

/**
 * The business's active lead forms by name (an install's lead form, an embedded form's): the first 100 of
 * GET /v1/allLeadForms. Only users who may use lead forms ask (`enabled`); the others get an empty list.
 */
export function useLeadFormOptions(enabled = true) {
  return useQuery({
    queryKey: keys.leadForms.options(),
    enabled,
    queryFn: async () =>
      (
        await api<{ data: TLeadFormPick[] }>('/v1/allLeadForms', {
          query: { status: 'active', perPage: LIST_MAX_PAGE_SIZE },
          silent: true,
        })
      ).data
        .map((f) => ({ id: f.id, name: f.name, languages: f.languages }))
        .sort((a, b) => a.name.localeCompare(b.name)),
  });
}
