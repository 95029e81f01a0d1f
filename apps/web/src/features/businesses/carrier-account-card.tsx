import { Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ZCarrierAccountInput } from '@stn/contracts/agencies';
import type { TBusiness } from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { BoundForm, PasswordField, TextField } from '../../components/form/fields.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useSetBusinessCarrierAccount } from './api/businesses.ts';

// The business's carrier account on the agency's business edit screen (ADR 093): the agency's account by
// default, or one of the business's own (a Twilio account or subaccount, checked with Twilio before it is
// saved, or a sandbox account); "Use the agency's account" puts it back.

type Values = { accountSid: string; authToken: string };
const FIELDS = ['accountSid', 'authToken'] as const;
const resolve = zodResolver(ZCarrierAccountInput);

export function CarrierAccountCard({ business }: { business: TBusiness }) {
  const { t } = useTranslation();
  const set = useSetBusinessCarrierAccount(business.id);
  const form = useForm<Values>({
    initialValues: { accountSid: '', authToken: '' },
    validate: (v) => resolve({ accountSid: v.accountSid.trim(), authToken: v.authToken.trim() }),
  });
  // A refusal keeps the typed values and shows the server's message next to its field.
  const submit = form.onSubmit(async (values) => {
    try {
      await set.mutateAsync({ accountSid: values.accountSid.trim(), authToken: values.authToken.trim() });
      form.reset();
    } catch (err) {
      applyServerErrors(form, err, FIELDS);
    }
  });
  const own = business.carrier_account;
  return (
    <FormSection
      title={t('agency.business.carrier.title')}
      hint={t('agency.business.carrier.hint')}
      testId="business-carrier-account"
    >
      <Group gap="xs" data-testid="business-carrier-status">
        <Text size="sm">
          {own
            ? t('agency.business.carrier.own', { sid: own.accountSid })
            : t('agency.business.carrier.uses_agency')}
        </Text>
        {own?.sandbox && <Badge variant="light">{t('agency.business.carrier.sandbox_badge')}</Badge>}
      </Group>
      <BoundForm form={form} onSubmit={submit}>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField
              name="accountSid"
              label={t('agency.business.carrier.account_sid')}
              placeholder="AC..."
              autoComplete="off"
              required
              testId="business-carrier-sid"
            />
            <PasswordField
              name="authToken"
              label={t('agency.business.carrier.auth_token')}
              autoComplete="off"
              required
              testId="business-carrier-token"
            />
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={set.isPending} data-testid="business-carrier-save">
              {t('agency.business.carrier.save')}
            </Button>
            <Button
              variant="light"
              onClick={() => void set.mutateAsync({ sandbox: true }).catch(() => undefined)}
              disabled={set.isPending}
              data-testid="business-carrier-sandbox"
            >
              {t('agency.business.carrier.use_sandbox')}
            </Button>
            {own && (
              <Button
                variant="default"
                onClick={() => void set.mutateAsync({ inherit: true }).catch(() => undefined)}
                disabled={set.isPending}
                data-testid="business-carrier-inherit"
              >
                {t('agency.business.carrier.use_agency')}
              </Button>
            )}
          </Group>
        </Stack>
      </BoundForm>
    </FormSection>
  );
}
