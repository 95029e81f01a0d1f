import type { TContactField } from '@stn/contracts/contacts';
import type {
  TEmbeddedForm,
  TEmbeddedFormRequest,
  TLeadForm,
  TLeadFormRequest,
} from '@stn/contracts/leadforms';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { queryClient } from '../../../lib/query-client.ts';
import { keys } from '../../../lib/query-keys.ts';
import type { Data, Message, MessageData } from '../../../lib/resource-api.ts';

// The lead forms calls (spec 001 "Lead forms", contracts/leadforms.ts): GET /v1/allLeadForms, the one form,
// POST and PUT /v1/leadForm, DELETE, POST toggle-active; an install's embedded forms
// (/v1/installs/{install_id}/forms: list, one, create, update, delete, toggle-active); the business's custom
// contact fields a question may fill (GET /v1/contacts/fields/active). The active forms to pick from are
// lib/pickers.ts's (installs use them too), a contact's submissions lib/lead-submissions.ts's.

export const LEAD_FORMS_PATH = '/v1/allLeadForms';
const ONE = '/v1/leadForm';
export const embeddedFormsPath = (installId: number) => `/v1/installs/${installId}/forms`;

const invalidateForms = () => void queryClient.invalidateQueries({ queryKey: keys.leadForms.all });

export function useLeadForm(id: number) {
  return useQuery({
    queryKey: keys.leadForms.detail(id),
    enabled: id > 0,
    queryFn: async () => (await api<Data<TLeadForm>>(`${ONE}/${id}`, { silent: true })).data,
  });
}

/** POST a new form, PUT an existing one. Silent: the builder shows a 422's problems at their places. */
export function useSaveLeadForm() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TLeadFormRequest }) =>
      id
        ? api<MessageData<TLeadForm>>(`${ONE}/${id}`, { method: 'PUT', body, silent: true })
        : api<MessageData<TLeadForm>>(ONE, { method: 'POST', body, silent: true }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.leadForms.detail(res.data.id), res.data);
      invalidateForms();
      // An install or an embedded form shows the form's name and languages.
      void queryClient.invalidateQueries({ queryKey: keys.embeddedForms.all });
    },
  });
}

/** POST toggle-active switches the form over (it takes no body). */
export function useToggleLeadForm() {
  return useMutation({
    mutationFn: (id: number) => api<MessageData<TLeadForm>>(`${ONE}/${id}/toggle-active`, { method: 'POST' }),
    onSettled: invalidateForms,
  });
}

export function useDeleteLeadForm() {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${ONE}/${id}`, { method: 'DELETE' }),
    onSettled: () => {
      invalidateForms();
      void queryClient.invalidateQueries({ queryKey: keys.installs.all });
      void queryClient.invalidateQueries({ queryKey: keys.embeddedForms.all });
    },
  });
}

/** The business's active custom contact fields (a question's "fills" list); the same key as the contacts'. */
export function useCustomFields() {
  return useQuery({
    queryKey: ['contact-fields', 'active'],
    queryFn: async () =>
      (await api<Data<TContactField[]>>('/v1/contacts/fields/active', { silent: true })).data,
    retry: false,
  });
}

// ---------------------------------------------------------------- embedded forms

const invalidateEmbedded = (installId: number) => {
  void queryClient.invalidateQueries({ queryKey: keys.embeddedForms.list(installId) });
  // The lead forms list counts the installs placing a form.
  invalidateForms();
};

export function useEmbeddedForm(installId: number, id: number) {
  return useQuery({
    queryKey: keys.embeddedForms.detail(installId, id),
    enabled: installId > 0 && id > 0,
    queryFn: async () =>
      (await api<Data<TEmbeddedForm>>(`${embeddedFormsPath(installId)}/${id}`, { silent: true })).data,
  });
}

/** Silent: the wizard shows a 422's messages next to their fields, on their step. */
export function useSaveEmbeddedForm(installId: number) {
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: TEmbeddedFormRequest }) =>
      id
        ? api<MessageData<TEmbeddedForm>>(`${embeddedFormsPath(installId)}/${id}`, {
            method: 'PUT',
            body,
            silent: true,
          })
        : api<MessageData<TEmbeddedForm>>(embeddedFormsPath(installId), {
            method: 'POST',
            body,
            silent: true,
          }),
    onSuccess: (res) => {
      queryClient.setQueryData(keys.embeddedForms.detail(installId, res.data.id), res.data);
      invalidateEmbedded(installId);
    },
  });
}

export function useToggleEmbeddedForm(installId: number) {
  return useMutation({
    mutationFn: (id: number) =>
      api<MessageData<TEmbeddedForm>>(`${embeddedFormsPath(installId)}/${id}/toggle-active`, {
        method: 'POST',
      }),
    onSettled: () => invalidateEmbedded(installId),
  });
}

export function useDeleteEmbeddedForm(installId: number) {
  return useMutation({
    mutationFn: (id: number) => api<Message>(`${embeddedFormsPath(installId)}/${id}`, { method: 'DELETE' }),
    onSettled: () => invalidateEmbedded(installId),
  });
}
