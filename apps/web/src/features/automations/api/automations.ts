import type {
  TAutomation,
  TAutomationRequest,
  TRun,
  ZAutomationRef,
  ZAutomationSharePreview,
  ZAutomationTemplate,
  ZAutomationTestEmail,
  ZAutomationTestSms,
  ZAutomationWebhook,
  ZBlockCounts,
} from '@stn/contracts/automations';
import type { z } from '@stn/contracts/zod';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import { type Data, type Message, type MessageData, resourceCalls } from '../../../lib/resource-api.ts';

// The automations calls (spec 001 "Automations"): /v1/automations list, get, create, update, delete,
// /all, /templates, /{token}/clone, /{id}/duplicate, /{id}/toggle, /new-webhook, /{id}/unique-id,
// /test-sms, /test-email; the runs (/{id}/runs, /{id}/blocks, /runs/{runId}); the share preview
// (/shared/{token}); and a contact's stop (DELETE /v1/contacts/{id}/automation/{automationId}).
// The pickers (tags, SMS templates, installs) are lib/pickers.ts's.

export const AUTOMATIONS_PATH = '/v1/automations';

export type TAutomationRef = z.infer<typeof ZAutomationRef>;
export type TAutomationTemplate = z.infer<typeof ZAutomationTemplate>;
export type TAutomationWebhook = z.infer<typeof ZAutomationWebhook>;
export type TBlockCount = z.infer<typeof ZBlockCounts>['data'][number];
/** The share page's preview (GET /shared/{token}): what the link imports, and whose it is. */
export type TSharedAutomation = z.infer<typeof ZAutomationSharePreview>;

const automations = resourceCalls<TAutomation, TAutomationRequest>({
  path: AUTOMATIONS_PATH,
  keys: keys.automations,
});

export const useAutomation = automations.useOne;
/** Save: POST a new one, PUT an existing one. Silent: the editor shows a 422's problems on its blocks. */
export function useSaveAutomation() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TAutomationRequest }) =>
      id
        ? api<MessageData<TAutomation>>(`${AUTOMATIONS_PATH}/${id}`, { method: 'PUT', body, silent: true })
        : api<MessageData<TAutomation>>(AUTOMATIONS_PATH, { method: 'POST', body, silent: true }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.automations.detail(res.data.id), res.data);
      automations.invalidate();
    },
  });
}
export const useDeleteAutomation = automations.useDelete;

/** PUT /{id}/toggle. Silent: a refused activation's problems are shown in a dialog by the list. */
export function useToggleAutomation() {
  return useMutation({
    mutationFn: ({ id, active }: { id: number; active: boolean }) =>
      api<MessageData<TAutomation>>(`${AUTOMATIONS_PATH}/${id}/toggle`, {
        method: 'PUT',
        body: { active },
        silent: true,
      }),
    onSettled: () => automations.invalidate(),
  });
}

/** POST /{id}/duplicate: a copy in the same business, inactive. */
export function useDuplicateAutomation() {
  return useMutation({
    mutationFn: (id: number) =>
      api<MessageData<TAutomation>>(`${AUTOMATIONS_PATH}/${id}/duplicate`, { method: 'POST', body: {} }),
    onSettled: () => automations.invalidate(),
  });
}

/** POST /{token}/clone: a shared automation or a template imported into the business, inactive. */
export function useCloneAutomation() {
  return useMutation({
    mutationFn: (token: string) =>
      api<MessageData<TAutomation>>(`${AUTOMATIONS_PATH}/${encodeURIComponent(token)}/clone`, {
        method: 'POST',
        body: {},
      }),
    onSettled: () => automations.invalidate(),
  });
}

/** The business's automations by name (AddToAutomation's picker). */
export function useAutomationRefs() {
  return useQuery({
    queryKey: keys.automations.refs(),
    queryFn: async () =>
      (await api<Data<TAutomationRef[]>>(`${AUTOMATIONS_PATH}/all`, { silent: true })).data,
  });
}

export function useAutomationTemplates() {
  return useQuery({
    queryKey: keys.automations.templates(),
    queryFn: async () =>
      (await api<Data<TAutomationTemplate[]>>(`${AUTOMATIONS_PATH}/templates`, { silent: true })).data,
    retry: false,
  });
}

export function useSharedAutomation(token: string) {
  return useQuery({
    queryKey: keys.automations.shared(token),
    queryFn: async () =>
      (
        await api<Data<TSharedAutomation>>(`${AUTOMATIONS_PATH}/shared/${encodeURIComponent(token)}`, {
          silent: true,
        })
      ).data,
    retry: false,
  });
}

/**
 * The unique inbound URL of a webhook trigger: the automation's own (GET /{id}/unique-id), or for a new
 * one a fresh token (GET /new-webhook) that the create call then keeps.
 */
export function useWebhookUrl(id: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.automations.webhook(id),
    queryFn: async () =>
      (
        await api<Data<TAutomationWebhook>>(
          id ? `${AUTOMATIONS_PATH}/${id}/unique-id` : `${AUTOMATIONS_PATH}/new-webhook`,
          { silent: true },
        )
      ).data,
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useTestSms() {
  return useMutation({
    mutationFn: (body: z.input<typeof ZAutomationTestSms>) =>
      api<Message>(`${AUTOMATIONS_PATH}/test-sms`, { method: 'POST', body }),
  });
}

export function useTestEmail() {
  return useMutation({
    mutationFn: (body: z.input<typeof ZAutomationTestEmail>) =>
      api<Message>(`${AUTOMATIONS_PATH}/test-email`, { method: 'POST', body }),
  });
}

// ---------------------------------------------------------------- runs

export const runsPath = (id: number) => `${AUTOMATIONS_PATH}/${id}/runs`;

/** Contacts at each block now and how many passed it, read again every 10 s while the editor is open. */
export function useBlockCounts(id: number) {
  return useQuery({
    queryKey: keys.automations.blocks(id),
    queryFn: async () =>
      (await api<{ data: TBlockCount[] }>(`${AUTOMATIONS_PATH}/${id}/blocks`, { silent: true })).data,
    enabled: id > 0,
    refetchInterval: 10_000,
    retry: false,
  });
}

/** One journey, step by step. */
export function useRun(runId: number | null) {
  return useQuery({
    queryKey: keys.automations.run(runId ?? 0),
    queryFn: async () => (await api<Data<TRun>>(`${AUTOMATIONS_PATH}/runs/${runId}`, { silent: true })).data,
    enabled: runId !== null,
  });
}

/** Stops a contact's journey in an automation (DELETE /v1/contacts/{id}/automation/{automationId}). */
export function useStopRun() {
  return useMutation({
    mutationFn: ({ contactId, automationId }: { contactId: number; automationId: number }) =>
      api<Message>(`/v1/contacts/${contactId}/automation/${automationId}`, { method: 'DELETE' }),
    onSettled: () => automations.invalidate(),
  });
}
