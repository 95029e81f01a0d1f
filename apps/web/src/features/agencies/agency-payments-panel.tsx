import { useForm } from '@mantine/form';
import { type TAgency, ZStripeSettingRequest } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { PasswordField, TextField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useUpdateStripeSetting } from './api/agencies.ts';

type StripeValues = { publicKey: string; secretKey: string };

/** The secret key is only sent when typed: left empty, the stored one is kept. */
const requestOf = (v: StripeValues) => ({
  publicKey: v.publicKey,
  ...(v.secretKey.trim() ? { secretKey: v.secretKey } : {}),
});
const resolve = zodResolver(ZStripeSettingRequest);

/** Card payment keys (PUT /v1/agencies/{id}/stripe-setting); the secret key is never shown. */
export function AgencyPaymentsPanel({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const save = useUpdateStripeSetting(agency.id);
  const form = useForm<StripeValues>({
    initialValues: { publicKey: agency.stripeConfig.publicKey ?? '', secretKey: '' },
    validate: (v) => resolve(requestOf(v)),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await save.mutateAsync(requestOf(values));
      const saved = { publicKey: res.data.stripeConfig.publicKey ?? '', secretKey: '' };
      form.setValues(saved);
      form.resetDirty(saved);
    } catch (err) {
      applyServerErrors(form, err, ['publicKey', 'secretKey']);
    }
  });

  return (
    <FormCard
      form={form}
      onSubmit={submit}
      maw={860}
      title={t('admin.agency_payments.title')}
      hint={
        agency.stripeConfig.secretKeySet
          ? t('admin.agency_payments.secret_set')
          : t('admin.agency_payments.secret_unset')
      }
      submitting={save.isPending}
      submitTestId="agency-stripe-submit"
    >
      <TextField
        name="publicKey"
        label={t('admin.agency_payments.public_key')}
        placeholder="pk_live_…"
        autoComplete="off"
        required
        testId="agency-stripe-public-key"
      />
      <PasswordField
        name="secretKey"
        label={t('admin.agency_payments.secret_key')}
        description={t('admin.agency_payments.secret_hint')}
        placeholder="sk_live_…"
        testId="agency-stripe-secret-key"
      />
    </FormCard>
  );
}
