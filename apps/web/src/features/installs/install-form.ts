import { useForm } from '@mantine/form';
import type { TInstall } from '@stn/contracts/installs';
import { ApiError } from '../../lib/api-client.ts';
import { issueText } from '../../lib/i18n.ts';
import { toastError } from '../../lib/toast.ts';
import {
  allErrors,
  formField,
  type InstallSection,
  type InstallValues,
  sectionErrors,
  valuesOf,
} from './install-values.ts';

/** The one install form of the wizard and the edit screen: values as typed, kept on any server error. */
export function useInstallForm(install: TInstall | null) {
  return useForm<InstallValues>({ initialValues: valuesOf(install) });
}

export type InstallForm = ReturnType<typeof useInstallForm>;

/** Runs a section's checks, shows their messages on its fields, and answers whether it is valid. */
export function checkSection(form: InstallForm, section: InstallSection | InstallSection[] | 'all'): boolean {
  const errors =
    section === 'all'
      ? allErrors(form.values, issueText)
      : Object.assign(
          {},
          ...(Array.isArray(section) ? section : [section]).map((one) =>
            sectionErrors(one, form.values, issueText),
          ),
        );
  form.setErrors(errors);
  return Object.keys(errors).length === 0;
}

/**
 * A failed save: a 422's field messages go next to their fields (the server may name a setting with or
 * without its `settings.` prefix), anything else is a toast. The values stay as typed.
 */
export function showSaveError(form: InstallForm, error: unknown) {
  if (error instanceof ApiError && error.code === 'VALIDATION' && error.body?.errors) {
    const errors: Record<string, string> = {};
    for (const [field, messages] of Object.entries(error.body.errors)) {
      if (messages[0]) errors[formField(field)] = messages[0];
    }
    form.setErrors(errors);
    const first = Object.values(errors)[0];
    if (first) toastError(first);
    return;
  }
  toastError(error instanceof Error && error.message ? error.message : String(error));
}
