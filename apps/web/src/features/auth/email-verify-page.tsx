import { Alert, Anchor, Center, Loader, Stack, Text, Title } from '@mantine/core';
import type { TSuccessMessage } from '@stn/contracts/http';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useAuth } from '../../lib/auth-store.ts';
import { dashboardLink } from '../../lib/nav/guards.ts';
import { apiErrorText } from './api-error-text.ts';
import { usePostOnce } from './use-post-once.ts';

/** E-mail verification link (spec 000 §2 /email-verify?token=; §7 POST /v1/verify-email, once). */
export default function EmailVerifyPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const outcome = usePostOnce<TSuccessMessage>('/v1/verify-email', token ? { token } : null);

  // A signed-in user (the guards let them open this link) goes on to the dashboard instead.
  const next = user ? (
    <Anchor component={Link} to={dashboardLink(user)} data-testid="email-verify-next">
      {t('screens.common.go_dashboard')}
    </Anchor>
  ) : (
    <Anchor component={Link} to="/login" data-testid="email-verify-next">
      {t('screens.email_verify.sign_in')}
    </Anchor>
  );

  if (token && outcome.status === 'pending') {
    return (
      <Center py="xl">
        <Stack align="center">
          <Loader aria-label={t('common.loading')} />
          <Text size="sm">{t('auth.verifying')}</Text>
        </Stack>
      </Center>
    );
  }

  const ok = outcome.status === 'success';
  const message = ok
    ? outcome.data.message || t('auth.email_verified')
    : outcome.status === 'error'
      ? apiErrorText(outcome.error, t('auth.verify_token_invalid'), 'token')
      : t('auth.verify_token_invalid');
  return (
    <Stack>
      <Title order={2}>
        {t(ok ? 'screens.email_verify.success_title' : 'screens.email_verify.failure_title')}
      </Title>
      <Alert color={ok ? 'green' : 'red'} data-testid={ok ? 'email-verify-success' : 'email-verify-failure'}>
        {message}
      </Alert>
      {next}
    </Stack>
  );
}
