import { Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TAgency, ZChangeAgencyPasswordRequest } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useChangeAgencyPassword } from './api/agencies.ts';

type PasswordValues = { password: string; password_confirmation: string };
const EMPTY: PasswordValues = { password: '', password_confirmation: '' };

/** Sets the agency admin's password (PUT /v1/agencies/{id}/change-password); their sessions end. */
export function AgencyPasswordPanel({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const change = useChangeAgencyPassword(agency.id);
  const form = useForm<PasswordValues>({
    initialValues: EMPTY,
    validate: zodResolver(ZChangeAgencyPasswordRequest),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      await change.mutateAsync(values);
      form.setValues(EMPTY);
      form.resetDirty(EMPTY);
    } catch (err) {
      applyServerErrors(form, err, ['password', 'password_confirmation']);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Paper withBorder p="lg" radius="md" maw={860}>
        <Stack>
          <div>
            <Title order={4}>{t('admin.agency_password.title')}</Title>
            <Text size="sm" c="dimmed">
              {agency.user
                ? t('admin.agency_password.hint', { email: agency.user.email })
                : t('agencies.no_agency_admin')}
            </Text>
          </div>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput
              label={t('admin.agency_password.password')}
              autoComplete="new-password"
              required
              data-testid="agency-password"
              {...form.getInputProps('password')}
            />
            <PasswordInput
              label={t('admin.agency_password.password_confirmation')}
              autoComplete="new-password"
              required
              data-testid="agency-password-confirmation"
              {...form.getInputProps('password_confirmation')}
            />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={change.isPending}
              disabled={!agency.user}
              data-testid="agency-password-submit"
            >
              {t('admin.agency_password.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
