import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAdvanceClock, useSandboxClock } from './api/sandbox-phones.ts';

const STEPS = [
  { seconds: 60, key: 'minute' },
  { seconds: 3600, key: 'hour' },
  { seconds: 86_400, key: 'day' },
] as const;

/**
 * Sandbox Phones (ADR 073): when the sandbox runs on a manual clock, its time and buttons that move it on,
 * so that a ring timeout or an automation's wait happens now instead of in a minute or a day. Nothing is
 * shown on a real clock.
 */
export function SandboxClockCard() {
  const { t, i18n } = useTranslation();
  const clock = useSandboxClock();
  const advance = useAdvanceClock();
  if (!clock.data?.manual) return null;
  const now = new Date(clock.data.now);
  return (
    <Card withBorder radius="md" padding="md" data-testid="sandbox-clock">
      <Stack gap="sm">
        <Title order={4}>{t('sandbox_phones.clock_title')}</Title>
        <Text size="sm" c="dimmed">
          {t('sandbox_phones.clock_hint')}
        </Text>
        <Text fw={600} data-testid="sandbox-clock-now" data-now={clock.data.now}>
          {now.toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' })}
        </Text>
        <Group gap="xs">
          {STEPS.map((s) => (
            <Button
              key={s.key}
              variant="light"
              size="xs"
              loading={advance.isPending && advance.variables === s.seconds}
              disabled={advance.isPending}
              onClick={() => advance.mutate(s.seconds)}
              data-testid={`sandbox-clock-${s.key}`}
            >
              {t(`sandbox_phones.clock_${s.key}`)}
            </Button>
          ))}
        </Group>
      </Stack>
    </Card>
  );
}
