import { Alert, Anchor, Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { TSuccessMessage } from '@stn/contracts/http';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { api } from '../../lib/api-client.ts';
import { apiErrorText } from './api-error-text.ts';

type Outcome =
  | { status: 'idle' | 'pending' }
  | { status: 'success'; message: string }
  | { status: 'error'; error: unknown };

/**
 * Unsubscribe from notification e-mails (spec 000 §2 /unsubscribe/email/:token; §7 POST /v1/unsubscribe).
 * Opening the link only asks: mail scanners and link previews open every link in a mail, so the POST waits
 * for the person's click (ADR 023).
 */
export default function UnsubscribePage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [outcome, setOutcome] = useState<Outcome>({
    status: token ? 'idle' : 'error',
    error: null,
  } as Outcome);

  const confirm = async () => {
    setOutcome({ status: 'pending' });
    try {
      // Silent: the screen shows the outcome itself, so no toast repeats it.
      const res = await api<TSuccessMessage>('/v1/unsubscribe', {
        method: 'POST',
        body: { token },
        silent: true,
      });
      setOutcome({ status: 'success', message: res.message || t('auth.unsubscribed') });
    } catch (error) {
      setOutcome({ status: 'error', error });
    }
  };

  let body: React.ReactNode;
  if (outcome.status === 'idle' || outcome.status === 'pending') {
    body = (
      <>
        <Title order={2}>{t('screens.unsubscribe.confirm_title')}</Title>
        <Text size="sm">{t('screens.unsubscribe.confirm_text')}</Text>
        <Button
          onClick={() => void confirm()}
          loading={outcome.status === 'pending'}
          color="red"
          data-testid="unsubscribe-confirm"
        >
          {t('auth.unsubscribe')}
        </Button>
      </>
    );
  } else {
    const ok = outcome.status === 'success';
    const message =
      outcome.status === 'success'
        ? outcome.message
        : outcome.status === 'error' && outcome.error
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
