import { Alert, Button, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TAgency, ZStripeSettingRequest } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { PasswordField, TextField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useStripeSandbox, useUpdateStripeSetting } from './api/agencies.ts';

type StripeValues = { publicKey: string; secretKey: string };

/** The secret key is only sent when typed: left empty, the stored one is kept. */
const requestOf = (v: StripeValues) => ({
  publicKey: v.publicKey,
  ...(v.secretKey.trim() ? { secretKey: v.secretKey } : {}),
});
const resolve = zodResolver(ZStripeSettingRequest);

/** Keys the platform's Stripe sandbox made (ADR 076): test cards only. */
const isSandboxKey = (key: string | null) => Boolean(key?.startsWith('pk_test_sandbox_'));

/**
 * Card payment keys (PUT /v1/agencies/{id}/stripe-setting); the secret key is never shown. With no keys
 * yet, "Use the Stripe sandbox" has the platform make test keys for the agency.
 */
export function AgencyPaymentsPanel({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const save = useUpdateStripeSetting(agency.id);
  const sandbox = useStripeSandbox(agency.id);
  const noKeys = !agency.stripeConfig.publicKey && !agency.stripeConfig.secretKeySet;
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

  const chooseSandbox = async () => {
    const res = await sandbox.mutateAsync().catch(() => null);
    if (!res) return;
    const saved = { publicKey: res.data.stripeConfig.publicKey ?? '', secretKey: '' };
    form.setValues(saved);
    form.resetDirty(saved);
  };

  return (
    <Stack maw={860}>
      {noKeys && (
        <Alert color="blue" variant="light" data-testid="agency-stripe-sandbox-offer">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('admin.agency_payments.sandbox_hint')}</Text>
            <Button
              variant="light"
              loading={sandbox.isPending}
              onClick={() => void chooseSandbox()}
              data-testid="agency-stripe-sandbox"
            >
              {t('admin.agency_payments.sandbox')}
            </Button>
          </Stack>
        </Alert>
      )}
      {isSandboxKey(agency.stripeConfig.publicKey) && (
        <Text size="sm" c="dimmed" data-testid="agency-stripe-sandbox-on">
          {t('admin.agency_payments.sandbox_on')}
        </Text>
      )}
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
    </Stack>
  );
}
