import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { queryClient } from '../../lib/query-client.ts';
import { keys } from '../../lib/query-keys.ts';
import { useCallerIdCheck, useNumber, useStartVerification } from './api/numbers.ts';

// numbers/:id/verification: the carrier calls the number and asks for a code; the code is shown large here
// and the screen asks the carrier every few seconds until the number is verified.

export default function NumberVerificationPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const onSandbox = Boolean(useAuth().user?.carrier_sandbox);
  const number = useNumber(id);
  const start = useStartVerification();
  const [code, setCode] = useState<string | null>(null);
  const phone = number.data?.phone_number ?? '';
  const check = useCallerIdCheck(phone, Boolean(code) && !number.data?.verified);
  const verified = Boolean(number.data?.verified || check.data?.verified || start.data?.verified);

  useEffect(() => {
    if (check.data?.verified) void queryClient.invalidateQueries({ queryKey: keys.numbers.all });
  }, [check.data?.verified]);

  if (number.isError) return <LoadFailed message={number.error.message} testId="number-load-error" />;
  if (!number.data) return <Loading />;

  const begin = async () => {
    const answer = await start.mutateAsync(phone).catch(() => null);
    if (answer && !answer.verified) setCode(answer.validation_code);
  };

  return (
    <Stack maw={640}>
      <div>
        <Text component={Link} to={pathOf('business.numbers')} size="sm" c="blue">
          {t('menu.numbers')}
        </Text>
        <Title order={2} data-testid="page-title">
          {t('numbers_ui.verification_title', { phone })}
        </Title>
      </div>
      <Paper withBorder p="lg" radius="md">
        {verified ? (
          <Alert color="green" data-testid="verification-done" title={t('numbers_ui.verified')}>
            {t('numbers_ui.verified_text', { phone })}
          </Alert>
        ) : code ? (
          <Stack align="center" gap="xs">
            <Text>{t('numbers_ui.code_intro', { phone })}</Text>
            <Text fz={56} fw={700} ff="monospace" lts={8} data-testid="verification-code">
              {code}
            </Text>
            <Text size="sm" c="dimmed" data-testid="verification-waiting">
              {t('numbers_ui.waiting')}
            </Text>
            {onSandbox && (
              <Text size="sm" data-testid="verification-sandbox-hint">
                {t('numbers_ui.sandbox_hint')}{' '}
                <Anchor component={Link} to={pathOf('business.sandbox-phones')}>
                  {t('numbers_ui.sandbox_phones')}
                </Anchor>
              </Text>
            )}
            <Button variant="subtle" onClick={() => void begin()} loading={start.isPending}>
              {t('numbers_ui.call_again')}
            </Button>
          </Stack>
        ) : (
          <Stack>
            <Text>{t('numbers_ui.verification_intro', { phone })}</Text>
            <Group>
              <Button onClick={() => void begin()} loading={start.isPending} data-testid="verification-start">
                {t('numbers_ui.start_verification')}
              </Button>
            </Group>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
