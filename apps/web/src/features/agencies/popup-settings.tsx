import { Button, Paper, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TAgency, ZPopupPaymentRequest } from '@stn/contracts/agencies';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CodeSnippet } from '../../components/code-snippet.tsx';
import { SelectField, SwitchField, TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { usePlanOptions } from '../../components/plan-options.ts';
import { api } from '../../lib/api-client.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useUpdatePopup } from './api/agency-settings.ts';
import { ModalUserList } from './modal-user-list.tsx';
import { objectOf, textOf, WithOwnAgency } from './own-agency.tsx';

type Values = {
  enabled: boolean;
  title: string;
  description: string;
  button_text: string;
  plan_id: string | null;
};
const FIELDS = ['enabled', 'title', 'description', 'button_text', 'plan_id'];

const requestOf = (v: Values) => ({ ...v, plan_id: v.plan_id ? Number(v.plan_id) : null });
const resolve = zodResolver(ZPopupPaymentRequest);

/** The popup (payment) settings (PUT /v1/agencies/{id}/popup-payment, kept in agency.settings.popup). */
export default function PopupSettings() {
  const { t } = useTranslation();
  return (
    // The form and the script keep the settings screens' width; the buyers' table has room for its columns.
    <Stack maw={1000}>
      <Title order={2} data-testid="page-title">
        {t('menu.popup')}
      </Title>
      <WithOwnAgency>
        {(agency) => (
          <>
            <Stack maw={760}>
              <PopupForm key={agency.id} agency={agency} />
              <PopupScript agencyId={agency.id} />
            </Stack>
            <Paper withBorder p="md">
              <ModalUserList agencyId={agency.id} />
            </Paper>
          </>
        )}
      </WithOwnAgency>
    </Stack>
  );
}

function PopupForm({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const save = useUpdatePopup(agency.id);
  const planOptions = usePlanOptions(agency.id);
  const popup = objectOf(agency.settings.popup);
  const form = useForm<Values>({
    initialValues: {
      enabled: popup.enabled === true,
      title: textOf(popup.title),
      description: textOf(popup.description),
      button_text: textOf(popup.button_text),
      plan_id: typeof popup.plan_id === 'number' ? String(popup.plan_id) : null,
    },
    validate: (v) => resolve(requestOf(v)),
  });
  const submit = form.onSubmit((v) =>
    save.mutate(requestOf(v), { onError: (err) => applyServerErrors(form, err, FIELDS) }),
  );
  return (
    <FormCard form={form} onSubmit={submit} submitting={save.isPending} submitTestId="agency-popup-save">
      <SwitchField name="enabled" label={t('agency.popup.enabled')} testId="agency-popup-enabled" />
      <TextField name="title" label={t('agency.popup.title')} testId="agency-popup-title" />
      <TextareaField
        name="description"
        label={t('agency.popup.description')}
        minRows={3}
        testId="agency-popup-description"
      />
      <TextField name="button_text" label={t('agency.popup.button_text')} testId="agency-popup-button-text" />
      <SelectField
        name="plan_id"
        label={t('agency.popup.plan')}
        placeholder={t('agency.popup.no_plan')}
        data={planOptions}
        clearable
        testId="agency-popup-plan"
      />
    </FormCard>
  );
}

/** The snippet for the agency's own websites (POST /v1/agencies/popup-script), with a Copy button. */
function PopupScript({ agencyId }: { agencyId: number }) {
  const { t } = useTranslation();
  const script = useMutation({
    mutationFn: async () =>
      (
        await api<{ data: { script: string } }>('/v1/agencies/popup-script', {
          method: 'POST',
          body: { agency_id: agencyId },
        })
      ).data.script,
  });
  return (
    <Paper withBorder p="md">
      <Stack>
        <Button
          variant="light"
          w="fit-content"
          loading={script.isPending}
          onClick={() => script.mutate()}
          data-testid="agency-popup-get-script"
        >
          {t('agency.popup.get_script')}
        </Button>
        {script.data && (
          <CodeSnippet
            code={script.data}
            hint={t('agency.popup.script_hint')}
            copy={t('agency.popup.copy')}
            copied={t('agency.popup.copied')}
            testId="agency-popup-script"
          />
        )}
      </Stack>
    </Paper>
  );
}
