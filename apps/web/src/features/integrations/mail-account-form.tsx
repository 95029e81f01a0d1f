import { Alert, Text } from '@mantine/core';
import { SMTP_SECURITIES, type TEmailAccount, ZEmailAccountInput } from '@stn/contracts/own-mail';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import {
  NumberField,
  PasswordField,
  SelectField,
  SwitchField,
  TextField,
} from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { emailAccounts } from './mail-api.ts';

// An SMTP e-mail account (ADR 090): the business's (business.setting.smtp.create / .edit) or the agency's own
// (agency.integrations). The server connects with the settings before saving; a refusal comes back as the
// host's (or password's) message under its field, and the values stay as typed.

type Values = {
  name: string;
  from_email: string;
  from_name: string;
  host: string;
  port: number | string;
  security: string;
  username: string;
  password: string;
  is_default: boolean;
};
const FIELDS = [
  'name',
  'from_email',
  'from_name',
  'host',
  'port',
  'security',
  'username',
  'password',
  'is_default',
] as const;

const valuesOf = (a: TEmailAccount | null): Values => ({
  name: a?.name ?? '',
  from_email: a?.from_email ?? '',
  from_name: a?.from_name ?? '',
  host: a?.host ?? '',
  port: a?.port ?? 587,
  security: a?.security ?? 'starttls',
  username: a?.username ?? '',
  password: '',
  is_default: a?.is_default ?? true,
});

const requestOf = (v: Values) => ({
  name: v.name,
  from_email: v.from_email.trim(),
  from_name: v.from_name,
  host: v.host.trim(),
  port: Number(v.port),
  security: v.security as (typeof SMTP_SECURITIES)[number],
  username: v.username,
  password: v.password,
  is_default: v.is_default,
});
const resolve = zodResolver(ZEmailAccountInput);
const validate = (v: Values) => resolve(requestOf(v));

type Calls = typeof emailAccounts;

/** The form of one account, for the business or the agency. */
export function MailAccountForm(props: {
  account: TEmailAccount | null;
  calls: Calls;
  title: string;
  /** The screen to go back to; without it (the agency's page) `onCancel`. */
  backTo?: string;
  onCancel?: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const save = props.calls.useSave(props.account?.id ?? null);
  const { form, submit, submitting } = useApiForm<Values>({
    initialValues: valuesOf(props.account),
    validate,
    fields: FIELDS,
    onSubmit: (values) => save.mutateAsync(requestOf(values)),
    onSuccess: props.onSaved,
  });
  return (
    <FormShell
      form={form}
      title={props.title}
      {...(props.backTo ? { back: { label: t('mailSettings.back'), to: props.backTo } } : {})}
      onSubmit={submit}
      actions={
        <FormActions
          submitting={submitting}
          submitTestId="mail-account-submit"
          submitLabel={t('mailSettings.check_and_save')}
          {...(props.backTo ? { cancelTo: props.backTo } : {})}
          {...(props.onCancel ? { onCancel: props.onCancel } : {})}
        />
      }
    >
      <Text size="sm" c="dimmed">
        {t('mailSettings.smtp_hint')}
      </Text>
      <TextField name="name" label={t('mailSettings.name')} testId="mail-account-name" />
      <TextField
        name="from_email"
        label={t('mailSettings.from_email')}
        required
        testId="mail-account-from-email"
      />
      <TextField name="from_name" label={t('mailSettings.from_name')} testId="mail-account-from-name" />
      <TextField name="host" label={t('mailSettings.host')} required testId="mail-account-host" />
      <NumberField
        name="port"
        label={t('mailSettings.port')}
        required
        min={1}
        max={65535}
        testId="mail-account-port"
      />
      <SelectField
        name="security"
        label={t('mailSettings.security')}
        data={SMTP_SECURITIES.map((s) => ({ value: s, label: t(`mailSettings.security_${s}`) }))}
        allowDeselect={false}
        testId="mail-account-security"
      />
      <TextField
        name="username"
        label={t('mailSettings.username')}
        autoComplete="off"
        testId="mail-account-username"
      />
      <PasswordField
        name="password"
        label={t('mailSettings.password')}
        description={props.account?.has_password ? t('mailSettings.password_kept') : undefined}
        testId="mail-account-password"
      />
      <SwitchField name="is_default" label={t('mailSettings.is_default')} testId="mail-account-default" />
      {props.account?.verified_at && (
        <Alert color="green" variant="light">
          {t('mailSettings.verified_at', { date: new Date(props.account.verified_at).toLocaleString() })}
        </Alert>
      )}
    </FormShell>
  );
}

/** business.setting.smtp.create and business.setting.smtp.edit. */
export default function MailAccountPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id ?? 0);
  const account = emailAccounts.useOne(id);
  const back = pathOf('business.setting');
  const done = () => navigate(back);
  if (!id)
    return (
      <MailAccountForm
        key="new"
        account={null}
        calls={emailAccounts}
        title={t('mailSettings.add_account')}
        backTo={back}
        onSaved={done}
      />
    );
  if (account.isError) return <LoadFailed message={account.error.message} testId="mail-account-load-error" />;
  if (!account.data) return <Loading />;
  return (
    <MailAccountForm
      key={account.data.id}
      account={account.data}
      calls={emailAccounts}
      title={t('mailSettings.edit_account')}
      backTo={back}
      onSaved={done}
    />
  );
}
