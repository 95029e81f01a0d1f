import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api, apiBlob } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';

// The contacts calls (spec 001 "Contacts", "Chat" for create/edit/delete/block, "Tasks, tags" for tags) and
// the list the contacts screen pages through (GET /v1/contacts). Shapes as docs/decisions/035-contacts.md;
// until packages/contracts/src/contacts.ts lands they are typed here (docs/decisions/038-contacts-screens.md).

type Data<T> = { success?: boolean; message?: string; data: T };
type Message = { success: true; message?: string };

export type TTag = { id: number; name: string };

export type TContact = {
  id: number;
  phone: string;
  first_name: string;
  last_name: string;
  email: string | null;
  birthday: string | null;
  anniversary: string | null;
  fields: Record<string, string>;
  source: 'sms' | 'voice' | 'cms';
  install_id: number | null;
  agent_user_id: number | null;
  opted_out_at: string | null;
  blocked_at: string | null;
  tags: TTag[];
  created_at: string;
};

export type TContactField = {
  id: number;
  key: string;
  label: string;
  type: 'text' | 'number' | 'date' | 'email' | 'phone';
  active: boolean;
};

export type TContactRequest = {
  phone: string;
  tag_ids: number[];
  first_name: string;
  last_name: string;
  email: string | null;
  birthday: string | null;
  anniversary: string | null;
  fields: Record<string, string>;
};

/** Create takes a key (the server derives one from the label when absent); an update cannot change it. */
export type TFieldRequest = { key?: string; label: string; type: TContactField['type']; active: boolean };

export type TImportStatus = {
  id: number;
  status: 'queued' | 'running' | 'done' | 'failed';
  processed: number;
  total: number;
  imported: number;
  errors: { line: number; message: string }[];
};

export type TInstallOption = { id: number; name: string };

export const CONTACTS_PATH = '/v1/contacts';
export const FIELDS_PATH = '/v1/contacts/fields';

/** Query keys: one resource each, so a mutation refreshes every screen showing it. */
export const contactKeys = {
  all: ['contacts'] as const,
  list: () => ['contacts', 'list'] as const,
  detail: (id: number) => ['contacts', 'detail', id] as const,
  fields: { all: ['contact-fields'] as const, active: ['contact-fields', 'active'] as const },
  tags: ['tags', 'all'] as const,
  installs: ['installs', 'contacts-picker'] as const,
  import: (id: number) => ['contacts', 'import', id] as const,
};

const invalidateContacts = () => void queryClient.invalidateQueries({ queryKey: contactKeys.all });
const invalidateFields = () => void queryClient.invalidateQueries({ queryKey: contactKeys.fields.all });

export const contactQuery = (id: number) =>
  queryOptions({
    queryKey: contactKeys.detail(id),
    queryFn: async () => (await api<Data<TContact>>(`${CONTACTS_PATH}/${id}`, { silent: true })).data,
  });

export function useContact(id: number) {
  return useQuery({ ...contactQuery(id), enabled: id > 0 });
}

/** Every tag of the business (the tag filter and pickers). */
export function useAllTags() {
  return useQuery({
    queryKey: contactKeys.tags,
    queryFn: async () => (await api<Data<TTag[]>>('/v1/tags/all', { silent: true })).data,
  });
}

/** The business's active installs (a new contact's number, the export's install). */
export function useInstallOptions() {
  return useQuery({
    queryKey: contactKeys.installs,
    queryFn: async () => (await api<Data<TInstallOption[]>>('/v1/installs/all', { silent: true })).data,
  });
}

export function useContactFields(activeOnly: boolean) {
  return useQuery({
    queryKey: activeOnly ? contactKeys.fields.active : [...contactKeys.fields.all, 'list'],
    queryFn: async () =>
      (await api<Data<TContactField[]>>(activeOnly ? `${FIELDS_PATH}/active` : FIELDS_PATH, { silent: true }))
        .data,
    placeholderData: keepPreviousData,
  });
}

/**
 * Create or update a contact through the calls of the spec: a new contact starts on an install's number
 * (POST /v1/chats/installs/{id}/contacts: phone and names), its details are PUT /v1/chats/contacts/{id}
 * and its tags are set by POST /v1/contacts/{id}/tag (mode 'set'). A contact created by a first step
 * that a later step refused (a 422) is kept: `created` gets its id and the next submit only updates it.
 */
export function useSaveContact(id: number | null, created?: (id: number) => void) {
  return useMutation({
    mutationFn: async (input: { body: TContactRequest; installId: number | null }) => {
      const { phone, tag_ids, ...details } = input.body;
      let contactId = id;
      if (!contactId) {
        const res = await api<Data<{ id: number }>>(`/v1/chats/installs/${input.installId}/contacts`, {
          method: 'POST',
          body: { phone, first_name: details.first_name, last_name: details.last_name },
          silent: true,
        });
        contactId = res.data.id;
        created?.(contactId);
      }
      await api<Data<unknown>>(`/v1/chats/contacts/${contactId}`, {
        method: 'PUT',
        body: { ...details, email: details.email ?? '' },
        silent: true,
      });
      return api<Data<TContact>>(`${CONTACTS_PATH}/${contactId}/tag`, {
        method: 'POST',
        body: { tag_ids, mode: 'set' },
      });
    },
    onSettled: invalidateContacts,
  });
}

export function useDeleteContact() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`/v1/chats/contacts/${id}`, { method: 'DELETE' }),
    onSuccess: invalidateContacts,
  });
}

export function useSetBlocked() {
  return useMutation({
    mutationFn: ({ id, blocked }: { id: number; blocked: boolean }) =>
      api<Message>(`/v1/chats/contacts/${id}/${blocked ? 'block' : 'unblock'}`, { method: 'POST' }),
    onSuccess: invalidateContacts,
  });
}

export function useSetOptOut() {
  return useMutation({
    mutationFn: ({ id, optedOut }: { id: number; optedOut: boolean }) =>
      api<Message>(`${CONTACTS_PATH}/${id}/opt-out`, { method: 'POST', body: { opted_out: optedOut } }),
    onSuccess: invalidateContacts,
  });
}

export function useSetAgent() {
  return useMutation({
    mutationFn: ({ id, agentId }: { id: number; agentId: number | null }) =>
      agentId
        ? api<Message>(`${CONTACTS_PATH}/${id}/agent/${agentId}`, { method: 'POST' })
        : api<Message>(`${CONTACTS_PATH}/${id}/delete-agent`, { method: 'DELETE' }),
    onSuccess: invalidateContacts,
  });
}

export type BulkAction = 'bulk-block' | 'bulk-delete' | 'bulk-optout';

export function useBulk() {
  return useMutation({
    mutationFn: ({ action, ids }: { action: BulkAction; ids: number[] }) =>
      api<Message>(`${CONTACTS_PATH}/${action}`, { method: 'POST', body: { ids } }),
    onSuccess: invalidateContacts,
  });
}

export function useBulkTag() {
  return useMutation({
    mutationFn: (body: { ids: number[]; tag_ids: number[] }) =>
      api<Message>(`${CONTACTS_PATH}/tag`, { method: 'POST', body }),
    onSuccess: invalidateContacts,
  });
}

/** Saves a blob as a file through a temporary link (the CSV export, the import template). */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export async function exportContacts(installId: number) {
  saveBlob(await apiBlob(`/v1/chats/installs/${installId}/contacts/export`), `contacts-${installId}.csv`);
}

export async function downloadTemplate() {
  saveBlob(await apiBlob(`${CONTACTS_PATH}/template-download`), 'contacts-template.csv');
}

/** Starts an import job (the file's text); the answer names the job to poll. */
export function useStartImport() {
  return useMutation({
    mutationFn: (body: { csv: string; install_id: number | null }) =>
      api<Data<{ import_id: number }>>(`${CONTACTS_PATH}/import`, { method: 'POST', body }),
  });
}

/** The import job's progress, polled every second until it is done or failed. */
export function useImportStatus(importId: number | null) {
  return useQuery({
    queryKey: contactKeys.import(importId ?? 0),
    enabled: importId !== null,
    queryFn: async () => {
      const res = await api<Data<TImportStatus>>(`${CONTACTS_PATH}/import/${importId}`, { silent: true });
      if (res.data.status === 'done') invalidateContacts();
      return res.data;
    },
    refetchInterval: (q) => {
      const status = q.state.data?.status;
      return status === 'done' || status === 'failed' ? false : 1000;
    },
  });
}

export function useSaveField() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TFieldRequest }) =>
      id
        ? api<Data<TContactField>>(`${FIELDS_PATH}/${id}`, {
            method: 'PUT',
            body: { label: body.label, type: body.type, active: body.active },
          })
        : api<Data<TContactField>>(FIELDS_PATH, { method: 'POST', body }),
    onSuccess: invalidateFields,
  });
}

export function useDeleteField() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${FIELDS_PATH}/${id}`, { method: 'DELETE' }),
    onSuccess: invalidateFields,
  });
}
