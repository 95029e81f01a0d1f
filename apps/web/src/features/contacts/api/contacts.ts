import type {
  TContactField as TContactFieldT,
  TContactImportStatus,
  TContact as TContactT,
} from '@stn/contracts/contacts';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api, apiBlob } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/files.ts';
import { queryClient } from '../../../lib/query-client.ts';

// The contacts calls (spec 001 "Contacts", "Chat" for create/edit/delete/block, "Tasks, tags" for tags) and
// the list the contacts screen pages through (GET /v1/contacts). Shapes: packages/contracts/src/contacts.ts
// (ADR 035); screens: ADR 038.

type Data<T> = { success?: boolean; message?: string; data: T };
type Message = { success: true; message?: string };

export type TTag = { id: number; name: string };
export type TContact = TContactT;
export type TContactField = TContactFieldT;
export type TImportStatus = TContactImportStatus;

/** The contact form's body (POST /v1/contacts; PUT /v1/contacts/{id} takes the same without install). */
export type TContactRequest = Pick<
  TContact,
  'phone' | 'first_name' | 'last_name' | 'email' | 'birthday' | 'anniversary' | 'fields'
> & { tag_ids: number[] };

/** Create takes a key (the server derives one from the label when absent); an update cannot change it. */
export type TFieldRequest = { key?: string; label: string; type: TContactField['type']; active: boolean };

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
  /** Not under 'contacts': a finished import refreshes the contacts, and must not refetch itself. */
  import: (id: number) => ['contact-imports', id] as const,
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
export { useInstallOptions } from '../../../lib/pickers.ts';

export function useContactFields(activeOnly: boolean) {
  return useQuery({
    queryKey: activeOnly ? contactKeys.fields.active : [...contactKeys.fields.all, 'list'],
    queryFn: async () =>
      (await api<Data<TContactField[]>>(activeOnly ? `${FIELDS_PATH}/active` : FIELDS_PATH, { silent: true }))
        .data,
    placeholderData: keepPreviousData,
  });
}

/** Create a contact on an install's number (POST /v1/contacts) or edit one (PUT), its tags included. */
export function useSaveContact(id: number | null) {
  return useMutation({
    mutationFn: async (input: { body: TContactRequest; installId: number | null }) => {
      if (id) {
        const { phone: _phone, ...body } = input.body;
        return (await api<Data<TContact>>(`${CONTACTS_PATH}/${id}`, { method: 'PUT', body })).data;
      }
      return (
        await api<Data<TContact>>(CONTACTS_PATH, {
          method: 'POST',
          body: { ...input.body, install_id: input.installId },
        })
      ).data;
    },
    onSuccess: invalidateContacts,
  });
}

export function useDeleteContact() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${CONTACTS_PATH}/${id}`, { method: 'DELETE' }),
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

export async function exportContacts(installId: number) {
  saveBlob(await apiBlob(`/v1/chats/installs/${installId}/contacts/export`), `contacts-${installId}.csv`);
}

export async function downloadTemplate() {
  saveBlob(await apiBlob(`${CONTACTS_PATH}/template-download`), 'contacts-template.csv');
}

/** Starts an import job (the file's text); the answer names the job to poll. */
export function useStartImport() {
  return useMutation({
    mutationFn: (body: { csv: string; install_id: number | null; duplicates: 'skip' | 'update' }) =>
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
