import { Alert, Text } from '@mantine/core';
import { type TMailIntegration, ZMailIntegrationInput } from '@stn/contracts/own-mail';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PasswordField, SwitchField, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { mailIntegrations, useMailTypes } from './mail-api.ts';

// The business's SendGrid integration (business.setting.integration.create / .edit; ADR 090): the API key
// is checked with SendGrid before it is saved, sealed, and never shown again (an empty key keeps it).

type Values = { name: string; api_key: string; from_email: string; from_name: string; active: boolean };
const FIELDS = ['name', 'api_key', 'from_email', 'from_name', 'active'] as const;

const valuesOf = (i: TMailIntegration | null): Values => ({
  name: i?.name ?? 'SendGrid',
  api_key: '',
  from_email: i?.from_email ?? '',
  from_name: i?.from_name ?? '',
  active: i?.active ?? true,
});
const requestOf = (v: Values) => ({ key: 'sendgrid' as const, ...v, from_email: v.from_email.trim() });
const resolve = zodResolver(ZMailIntegrationInput);

function IntegrationForm({ integration }: { integration: TMailIntegration | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const back = pathOf('business.setting');
  const save = mailIntegrations.useSave(integration?.id ?? null);
  const { form, submit, submitting } = useApiForm<Values>({
    initialValues: valuesOf(integration),
    validate: (v) => {
      const errors = resolve(requestOf(v));
      if (!integration && !v.api_key.trim()) errors.api_key = t('mailSettings.api_key_required');
      return errors;
    },
    fields: FIELDS,
    onSubmit: (values) => save.mutateAsync(requestOf(values)),
    onSuccess: () => navigate(back),
  });
  return (
    <FormShell
      form={form}
      title={integration ? t('mailSettings.edit_sendgrid') : t('mailSettings.add_sendgrid')}
      back={{ label: t('mailSettings.back'), to: back }}
      onSubmit={submit}
      actions={
        <FormActions
          submitting={submitting}
          submitTestId="mail-integration-submit"
          submitLabel={t('mailSettings.check_and_save')}
          cancelTo={back}
        />
      }
    >
      <Text size="sm" c="dimmed">
        {t('mailSettings.sendgrid_hint')}
      </Text>
      <TextField name="name" label={t('mailSettings.name')} testId="mail-integration-name" />
      <PasswordField
        name="api_key"
        label={t('mailSettings.api_key')}
        required={!integration}
        description={integration?.has_api_key ? t('mailSettings.api_key_kept') : undefined}
        testId="mail-integration-key"
      />
      <TextField
        name="from_email"
        label={t('mailSettings.from_email')}
        required
        testId="mail-integration-from-email"
      />
      <TextField name="from_name" label={t('mailSettings.from_name')} testId="mail-integration-from-name" />
      <SwitchField name="active" label={t('mailSettings.active')} testId="mail-integration-active" />
    </FormShell>
  );
}

/** business.setting.integration.create and business.setting.integration.edit. */
export default function MailIntegrationPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const integration = mailIntegrations.useOne(id);
  const types = useMailTypes();
  const sendgrid = types.data?.find((x) => x.type === 'sendgrid');
  if (!id && sendgrid && !sendgrid.available)
    return (
      <Alert color="yellow" data-testid="mail-sendgrid-disabled">
        {t('mailSettings.sendgrid_disabled')}
      </Alert>
    );
  if (!id) return <IntegrationForm key="new" integration={null} />;
  if (integration.isError)
    return <LoadFailed message={integration.error.message} testId="mail-integration-load-error" />;
  if (!integration.data) return <Loading />;
  return <IntegrationForm key={integration.data.id} integration={integration.data} />;
}
