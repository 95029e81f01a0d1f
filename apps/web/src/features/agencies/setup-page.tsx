import { Alert, Button, Card, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ZTwilioSetupInput } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { BoundForm, PasswordField, TextField } from '../../components/form/fields.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useAgencySetup } from './api/setup.ts';

// Agency Setup (spec 000 §4): an agency without telephony is sent here. It connects its own Twilio account
// (checked with Twilio before it is saved) or tries the product on the sandbox carrier. Once set up, the
// profile is reloaded and the guard sends the agency on to its landing page.

type Values = { accountSid: string; authToken: string };
const FIELDS = ['accountSid', 'authToken'] as const;
const resolve = zodResolver(ZTwilioSetupInput);

export default function AgencySetupPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const mayConfigure = userCan(user, 'agencyTelephony.manage');
  return (
    <Stack maw={960}>
      <Title order={2} data-testid="page-title">
        {t('agency_setup.title')}
      </Title>
      <Text c="dimmed">{t('agency_setup.intro')}</Text>
      {mayConfigure ? (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <TwilioCard />
          <SandboxCard />
        </SimpleGrid>
      ) : (
        <Alert color="orange" data-testid="setup-not-allowed">
          {t('agency_setup.admin_only')}
        </Alert>
      )}
    </Stack>
  );
}

function TwilioCard() {
  const { t } = useTranslation();
  const setup = useAgencySetup();
  const form = useForm<Values>({
    initialValues: { accountSid: '', authToken: '' },
    validate: (v) => resolve({ accountSid: v.accountSid.trim(), authToken: v.authToken.trim() }),
  });
  // A refusal keeps the typed values and shows the server's message next to its field.
  const submit = form.onSubmit(async (values) => {
    try {
      await setup.mutateAsync({ accountSid: values.accountSid.trim(), authToken: values.authToken.trim() });
    } catch (err) {
      applyServerErrors(form, err, FIELDS);
    }
  });
  return (
    <Card withBorder radius="md" p="lg" data-testid="setup-twilio">
      <BoundForm form={form} onSubmit={submit}>
        <Stack>
          <Title order={4}>{t('agency_setup.twilio_title')}</Title>
          <Text size="sm">{t('agency_setup.twilio_text')}</Text>
          <TextField
            name="accountSid"
            label={t('agency_setup.account_sid')}
            placeholder="AC..."
            autoComplete="off"
            required
            testId="setup-account-sid"
          />
          <PasswordField
            name="authToken"
            label={t('agency_setup.auth_token')}
            autoComplete="off"
            required
            testId="setup-auth-token"
          />
          <Button type="submit" loading={setup.isPending} data-testid="setup-twilio-save" w="fit-content">
            {t('common.save')}
          </Button>
        </Stack>
      </BoundForm>
    </Card>
  );
}

function SandboxCard() {
  const { t } = useTranslation();
  const setup = useAgencySetup();
  return (
    <Card withBorder radius="md" p="lg" data-testid="setup-sandbox">
      <Stack>
        <Title order={4}>{t('agency_setup.sandbox_title')}</Title>
        <Text size="sm">{t('agency_setup.sandbox_text')}</Text>
        <List size="sm" spacing={4}>
          <List.Item>{t('agency_setup.sandbox_point_calls')}</List.Item>
          <List.Item>{t('agency_setup.sandbox_point_phones')}</List.Item>
          <List.Item>{t('agency_setup.sandbox_point_later')}</List.Item>
        </List>
        <Button
          variant="light"
          onClick={() => void setup.mutateAsync({ sandbox: true }).catch(() => undefined)}
          loading={setup.isPending}
          data-testid="setup-sandbox-choose"
          w="fit-content"
        >
          {t('agency_setup.sandbox_choose')}
        </Button>
      </Stack>
    </Card>
  );
}
