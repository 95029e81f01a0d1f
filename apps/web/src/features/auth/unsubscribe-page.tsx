import { Alert, Anchor, Center, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { TSuccessMessage } from '@stn/contracts/http';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { apiErrorText } from './api-error-text.ts';
import { usePostOnce } from './use-post-once.ts';

/** Unsubscribe from notification e-mails (spec 000 §2 /unsubscribe/email/:token; §7 POST /v1/unsubscribe). */
export default function UnsubscribePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const outcome = usePostOnce<TSuccessMessage>('/v1/unsubscribe', token ? { token } : null);

  let body: ReactNode;
  if (token && outcome.status === 'pending') {
    body = (
      <Stack align="center" py="md">
        <Loader aria-label={t('common.loading')} />
        <Text size="sm">{t('auth.unsubscribing')}</Text>
      </Stack>
    );
  } else {
    const ok = outcome.status === 'success';
    const message = ok
      ? outcome.data.message || t('auth.unsubscribed')
      : outcome.status === 'error'
        ? apiErrorText(outcome.error, t('auth.unsubscribe_invalid'), 'token')
        : t('auth.unsubscribe_invalid');
    body = (
      <>
        <Title order={2}>
          {t(ok ? 'screens.unsubscribe.success_title' : 'screens.unsubscribe.failure_title')}
        </Title>
        <Alert color={ok ? 'green' : 'red'} data-testid={ok ? 'unsubscribe-success' : 'unsubscribe-failure'}>
          {message}
        </Alert>
        {ok ? (
          <Text size="sm" c="dimmed">
            {t('screens.unsubscribe.note')}
          </Text>
        ) : null}
      </>
    );
  }

  return (
    <Center mih="100vh" p="xl" bg="gray.0">
      <Paper w="100%" maw={480} p="xl" radius="md" withBorder>
        <Stack>
          {body}
          <Anchor component={Link} to="/" size="sm">
            {t('errors.go_home')}
          </Anchor>
        </Stack>
      </Paper>
    </Center>
  );
}
