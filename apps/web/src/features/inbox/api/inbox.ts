// The inbox calls (spec 001 "Chat", ADR 034/037). The list and the SMS agents are `cancellable`: TanStack
// Query hands each query an AbortSignal, aborted when its key changes (another install, filter, search,
// page) or the screen unmounts; the signal goes to fetch through the api client.
import { useMutation, useQuery } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import type {
  ConversationItem,
  InboxContact,
  InboxConversation,
  InboxMessage,
  InboxType,
  Paged,
  Template,
} from '../types.ts';

type Data<T> = { data: T };
export const CHATS = '/v1/chats';
export const PER_PAGE = 10;

export type InboxQuery = { type: InboxType; keyword: string; page: number };

export function useConversations(installId: number | null, query: InboxQuery) {
  const q = { type: query.type, keyword: query.keyword || undefined, page: query.page, perPage: PER_PAGE };
  return useQuery({
    queryKey: keys.inbox.list(installId ?? 0, q),
    queryFn: ({ signal }) =>
      api<Paged<InboxConversation>>(`${CHATS}/installs/${installId}/inbox`, {
        query: q,
        silent: true,
        signal,
      }),
    enabled: Boolean(installId),
    placeholderData: (prev) => prev,
  });
}

export function useContact(id: number | null) {
  return useQuery({
    queryKey: keys.inbox.contact(id ?? 0),
    queryFn: async ({ signal }) =>
      (await api<Data<InboxContact>>(`${CHATS}/contacts/${id}`, { silent: true, signal })).data,
    enabled: Boolean(id),
  });
}

export function useConversation(id: number | null) {
  return useQuery({
    queryKey: keys.inbox.conversation(id ?? 0),
    queryFn: async ({ signal }) =>
      (await api<Data<ConversationItem[]>>(`${CHATS}/contacts/${id}/conversations`, { silent: true, signal }))
        .data,
    enabled: Boolean(id),
  });
}

type Agent = { id: number; name?: string; first_name?: string; last_name?: string };
export function useSmsAgents(installId: number | null) {
  return useQuery({
    queryKey: keys.inbox.smsAgents(installId ?? 0),
    queryFn: async ({ signal }) =>
      (await api<Data<Agent[]>>(`/v1/installs/${installId}/sms-agents`, { silent: true, signal })).data,
    enabled: Boolean(installId),
  });
}
export const agentName = (a: Agent) =>
  a.name || `${a.first_name ?? ''} ${a.last_name ?? ''}`.trim() || `#${a.id}`;

export function useSmsTemplates() {
  return useQuery({
    queryKey: ['templates', 'all', 'sms'],
    queryFn: async ({ signal }) =>
      (await api<Data<Template[]>>('/v1/templates/all', { query: { provider: 'sms' }, silent: true, signal }))
        .data,
    retry: false,
  });
}

const refreshContact = (id: number) => {
  void queryClient.invalidateQueries({ queryKey: keys.inbox.contact(id) });
  void queryClient.invalidateQueries({ queryKey: keys.inbox.lists() });
};

export type SendInput = {
  body: string;
  /** Images from the computer, as data URLs. */
  media: string[];
  /** Images of the business's media library, by id. */
  media_ids: number[];
  template_id?: number;
  send_at?: string;
};

/** The filtered text of a refused send and where its restricted words are ([start, end) in the text). */
export type Restricted = { preview: string; marks: { start: number; end: number }[] };

/** The restricted-content refusal of a send (422, reason messages.restricted_content) and its preview. */
export function restrictedPreview(err: unknown): Restricted | null {
  if (!(err instanceof ApiError) || err.status !== 422) return null;
  const body = err.body as (Record<string, unknown> & { data?: Record<string, unknown> }) | null;
  const reason = body?.reason ?? body?.data?.reason;
  if (reason !== 'messages.restricted_content') return null;
  const preview = body?.data?.preview ?? body?.preview;
  const marks = body?.data?.marks ?? body?.marks;
  return {
    preview: typeof preview === 'string' ? preview : '',
    marks: Array.isArray(marks)
      ? marks.filter(
          (m): m is Restricted['marks'][number] =>
            typeof m?.start === 'number' && typeof m?.end === 'number' && m.end > m.start,
        )
      : [],
  };
}

export function useSend(contactId: number) {
  return useMutation({
    mutationFn: (input: SendInput) =>
      api<Data<InboxMessage>>(`${CHATS}/contacts/${contactId}/messages`, {
        method: 'POST',
        body: input,
        // The restricted-content refusal shows its modal instead of a toast (see the send box).
        silent: true,
      }),
    onSettled: () => refreshContact(contactId),
  });
}

/** The contact actions that take a message id or nothing: resend, cancel schedule, refresh, block. */
export function useContactAction(contactId: number) {
  return useMutation({
    mutationFn: (input: {
      action: 'resend-messages' | 'cancel-schedule' | 'refresh' | 'block' | 'unblock';
      message_id?: number;
    }) =>
      api(`${CHATS}/contacts/${contactId}/${input.action}`, {
        method: 'POST',
        body: input.message_id ? { message_id: input.message_id } : {},
      }),
    onSettled: () => refreshContact(contactId),
  });
}

export function useUpdateContact(contactId: number) {
  return useMutation({
    mutationFn: (input: { first_name: string; last_name: string; email: string | null }) =>
      api(`${CHATS}/contacts/${contactId}`, { method: 'PUT', body: input }),
    onSettled: () => refreshContact(contactId),
  });
}

export function useContactsAction(contactId: number) {
  return useMutation({
    mutationFn: (
      input: { kind: 'on-top' } | { kind: 'opt-out' } | { kind: 'agent'; agentId: number | null },
    ) => {
      if (input.kind === 'on-top')
        return api(`/v1/contacts/${contactId}/set-on-top`, { method: 'POST', body: {} });
      if (input.kind === 'opt-out')
        return api(`/v1/contacts/${contactId}/opt-out`, { method: 'POST', body: {} });
      if (input.agentId === null) return api(`/v1/contacts/${contactId}/delete-agent`, { method: 'DELETE' });
      return api(`/v1/contacts/${contactId}/agent/${input.agentId}`, { method: 'POST', body: {} });
    },
    onSettled: () => refreshContact(contactId),
  });
}

export function useEmailContact(contactId: number) {
  return useMutation({
    mutationFn: (input: { subject: string; body: string }) =>
      api(`${CHATS}/contacts/${contactId}/email`, { method: 'POST', body: input }),
  });
}

export function useSendIcs(contactId: number) {
  return useMutation({
    mutationFn: (input: { title: string; start: string; end: string; description: string }) =>
      api<Data<{ ics_file: string }>>(`${CHATS}/contacts/${contactId}/send-ics`, {
        method: 'POST',
        body: input,
      }),
    onSettled: () => refreshContact(contactId),
  });
}

/** Starts a conversation with a new contact on the install (POST /v1/chats/installs/{id}/contacts). */
export function useStartConversation(installId: number) {
  return useMutation({
    mutationFn: (input: { phone: string; name?: string }) =>
      api<Data<{ id: number; install_id: number | null }>>(`${CHATS}/installs/${installId}/contacts`, {
        method: 'POST',
        body: input,
      }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: keys.inbox.lists() }),
  });
}
