import { Button, Text } from '@mantine/core';
import { type TNumber, ZNumberUpdate } from '@stn/contracts/telephony';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { SelectField, SwitchField, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { useInstallPicks, useNumber, useUpdateNumber } from './api/numbers.ts';

// One number (numbers/:id, and setting/number/:id): its name, whether it texts, and its install.

type Values = { friendly_name: string; sms_enabled: boolean; install_id: string };
const FIELDS = ['friendly_name', 'sms_enabled', 'install_id'] as const;
const requestOf = (v: Values) => ({
  friendly_name: v.friendly_name,
  sms_enabled: v.sms_enabled,
  install_id: v.install_id ? Number(v.install_id) : null,
});
const resolve = zodResolver(ZNumberUpdate);

export default function NumberEditPage() {
  const id = Number(useParams().id ?? 0);
  const number = useNumber(id);
  if (number.isError) return <LoadFailed message={number.error.message} testId="number-load-error" />;
  if (!number.data) return <Loading />;
  return <NumberForm key={number.data.id} number={number.data} />;
}

function NumberForm({ number }: { number: TNumber }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useUpdateNumber(number.id);
  const installs = useInstallPicks();
  const { form, submit } = useApiForm<Values>({
    initialValues: {
      friendly_name: number.friendly_name,
      sms_enabled: number.sms_enabled,
      install_id: number.install_id ? String(number.install_id) : '',
    },
    validate: (v) => resolve(requestOf(v)),
    fields: FIELDS,
    onSubmit: (v) => save.mutateAsync(requestOf(v)),
    onSuccess: () => navigate(pathOf('business.numbers')),
  });
  const options = [
    { value: '', label: t('numbers_ui.no_install') },
    ...(installs.data ?? []).map((i) => ({ value: String(i.id), label: i.name })),
  ];
  return (
    <FormShell
      form={form}
      title={number.phone_number}
      back={{ label: t('menu.numbers'), to: pathOf('business.numbers') }}
      onSubmit={submit}
      actions={
        <FormActions
          submitting={save.isPending}
          submitTestId="number-form-submit"
          cancelTo={pathOf('business.numbers')}
          left={
            !number.verified && (
              <Button
                variant="light"
                component={Link}
                to={pathOf('business.numbers.verification', { id: number.id })}
                data-testid="number-form-verify"
              >
                {t('numbers_ui.verify')}
              </Button>
            )
          }
        />
      }
    >
      <Text size="sm" c="dimmed" data-testid="number-kind">
        {t(`numbers_ui.kinds.${number.kind}`)} ·{' '}
        {t(number.verified ? 'numbers_ui.verified' : 'numbers_ui.unverified')}
      </Text>
      <TextField name="friendly_name" label={t('numbers_ui.friendly_name')} testId="number-name" />
      <SelectField
        name="install_id"
        label={t('numbers_ui.install')}
        data={options}
        allowDeselect={false}
        testId="number-install"
      />
      <SwitchField name="sms_enabled" label={t('numbers_ui.sms_enabled')} testId="number-sms" />
    </FormShell>
  );
}
