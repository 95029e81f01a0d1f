import { Badge, Card, Group, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import type { TLiveCall } from '@stn/contracts/live';
import { useTranslation } from 'react-i18next';
import { useLiveData } from './api/live.ts';

// The live card (ADR 083) for the business and agency dashboards: how many calls ring and are in progress,
// how many visitors have the widget open, and the calls themselves. It stays current through the realtime
// `live_data` message (lib/realtime.ts); where to show it is the dashboards' choice.

/** At most this many calls are listed; the counts above say how many there are. */
const LISTED = 5;

function Figure({ label, value, testId }: { label: string; value: number; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

function CallRow({ call, at }: { call: TLiveCall; at: number }) {
  const { t } = useTranslation();
  const minutes = Math.max(0, Math.floor((at - Date.parse(call.since)) / 60_000));
  const where = call.business_name ? `${call.business_name} · ${call.install_name}` : call.install_name;
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" data-testid={`live-call-${call.id}`}>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} truncate>
          {call.visitor_name ? `${call.visitor_name} (${call.visitor_phone})` : call.visitor_phone}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {call.agent_name ? `${where} · ${call.agent_name}` : where}
        </Text>
      </Stack>
      <Group gap={6} wrap="nowrap">
        <Text size="xs" c="dimmed">
          {t('analytics.live.minutes', { n: minutes })}
        </Text>
        <Badge color={call.state === 'ringing' ? 'yellow' : 'green'} variant="light">
          {t(`analytics.live.state.${call.state}`)}
        </Badge>
      </Group>
    </Group>
  );
}

export function LiveCard() {
  const { t } = useTranslation();
  const live = useLiveData();
  const data = live.data;
  const ringing = data?.calls.filter((c) => c.state === 'ringing').length ?? 0;
  const inProgress = data?.calls.filter((c) => c.state === 'in_progress').length ?? 0;
  return (
    <Card withBorder radius="md" padding="md" data-testid="live-card">
      <Group justify="space-between" mb="sm">
        <Text fw={700}>{t('analytics.live.title')}</Text>
        {live.isFetching && <Loader size="xs" />}
      </Group>
      {live.isError && !data ? (
        <Text size="sm" c="red" data-testid="live-failed">
          {t('analytics.live.failed')}
        </Text>
      ) : (
        <Stack gap="sm">
          <SimpleGrid cols={3}>
            <Figure label={t('analytics.live.ringing')} value={ringing} testId="live-ringing" />
            <Figure label={t('analytics.live.in_progress')} value={inProgress} testId="live-in-progress" />
            <Figure
              label={t('analytics.live.visitors')}
              value={data?.visitors.total ?? 0}
              testId="live-visitors"
            />
          </SimpleGrid>
          {data && data.calls.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="live-no-calls">
              {t('analytics.live.no_calls')}
            </Text>
          )}
          {data?.calls.slice(0, LISTED).map((call) => (
            <CallRow key={call.id} call={call} at={Date.parse(data.at)} />
          ))}
          {data && data.calls.length > LISTED && (
            <Text size="xs" c="dimmed">
              {t('analytics.live.more', { n: data.calls.length - LISTED })}
            </Text>
          )}
          {data && data.visitors.by_install.length > 0 && (
            <Text size="xs" c="dimmed" data-testid="live-visitors-by-install">
              {data.visitors.by_install
                .map((v) =>
                  t('analytics.live.visitors_on', {
                    install: v.business_name ? `${v.business_name} · ${v.install_name}` : v.install_name,
                    n: v.count,
                  }),
                )
                .join(', ')}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}
