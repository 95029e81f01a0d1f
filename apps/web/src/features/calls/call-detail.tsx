import {
  Alert,
  Anchor,
  Badge,
  Divider,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Timeline,
  Title,
} from '@mantine/core';
import type { TCallDetail } from '@stn/contracts/telephony';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Loading } from '../../components/load-state.tsx';
import { useReportForbidden } from '../../components/not-allowed.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { callRecordingPath, useCall } from './api/calls.ts';
import { KindBadge, OutcomeBadge } from './call-badges.tsx';
import {
  callMilestones,
  claimingLeg,
  formatConnectTime,
  formatSeconds,
  legTimeline,
  offsetFrom,
} from './call-format.ts';
import { RecordingPlayer } from './recording-player.tsx';

const FINAL_OK = new Set(['completed', 'in-progress', 'answered']);
const FINAL_BAD = new Set(['busy', 'failed', 'no-answer', 'canceled']);
const legColor = (status: string) =>
  FINAL_OK.has(status) ? 'green' : FINAL_BAD.has(status) ? 'red' : 'blue';

function Fact({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId}>
        {value}
      </Text>
    </Stack>
  );
}

/** One call: who asked, who claimed it, how fast it connected, its legs in order, and its recording. */
export function CallDetail({ id }: { id: number }) {
  const { t } = useTranslation();
  const call = useCall(id);
  const forbidden = useReportForbidden(call.error);
  if (forbidden) return null;
  if (call.isPending) return <Loading />;
  if (call.isError)
    return (
      <Alert color="red" data-testid="call-detail-error">
        {call.error instanceof ApiError && call.error.code === 'NOT_FOUND'
          ? t('business.calls.not_found')
          : t('common.load_failed')}
      </Alert>
    );
  return <CallView call={call.data} />;
}

function CallView({ call }: { call: TCallDetail }) {
  const { t } = useTranslation();
  const legs = legTimeline(call.legs);
  const claimedSid = claimingLeg(call)?.call_sid;
  const milestones = callMilestones(call);
  const none = t('business.calls.none');
  return (
    <Stack data-testid="call-detail">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Title order={4} data-testid="call-detail-phone">
            {call.visitor_phone}
          </Title>
          {call.visitor_name && <Text c="dimmed">{call.visitor_name}</Text>}
        </Stack>
        <Group gap="xs">
          <KindBadge kind={call.kind} />
          <OutcomeBadge outcome={call.outcome} testId="call-detail-outcome" />
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Fact label={t('business.calls.install')} value={call.install_name} />
        <Fact label={t('business.calls.requested_at')} value={formatDate(call.requested_at, 'long')} />
        {call.scheduled_for && (
          <Fact label={t('business.calls.scheduled_for')} value={formatDate(call.scheduled_for, 'long')} />
        )}
        <Fact
          label={t('business.calls.claimed_by')}
          value={call.agent_name ? `${call.agent_name} (${call.agent_phone ?? none})` : none}
          testId="call-detail-agent"
        />
        <Fact label={t('business.calls.claimed_at')} value={formatDate(call.claimed_at, 'long')} />
        <Fact label={t('business.calls.connected_at')} value={formatDate(call.connected_at, 'long')} />
        <Fact label={t('business.calls.ended_at')} value={formatDate(call.ended_at, 'long')} />
        <Fact
          label={t('business.calls.time_to_connect')}
          value={formatConnectTime(call.time_to_connect)}
          testId="call-detail-connect"
        />
        <Fact
          label={t('business.calls.duration')}
          value={formatSeconds(call.duration)}
          testId="call-detail-duration"
        />
        <Fact label={t('business.calls.caller_id')} value={call.caller_id ?? none} />
      </SimpleGrid>

      <Divider label={t('business.calls.timeline')} labelPosition="left" />
      <Timeline bulletSize={12} lineWidth={2} active={milestones.length - 1} data-testid="call-timeline">
        {milestones.map((m) => (
          <Timeline.Item
            key={m.key}
            title={
              <Group gap="xs">
                <Text size="sm" fw={600}>
                  {m.key === 'claimed' && call.agent_name
                    ? t('business.calls.milestone.claimed_by', { name: call.agent_name })
                    : t(`business.calls.milestone.${m.key}`)}
                </Text>
                <Text size="xs" c="dimmed">
                  {offsetFrom(call.requested_at, m.at)}
                </Text>
              </Group>
            }
            data-testid={`call-milestone-${m.key}`}
          />
        ))}
      </Timeline>

      <Divider label={t('business.calls.recording')} labelPosition="left" />
      {call.recording_url ? (
        <RecordingPlayer path={callRecordingPath(call.id)} testId="call-recording" />
      ) : (
        <Text size="sm" c="dimmed" data-testid="call-no-recording">
          {t('business.calls.no_recording')}
        </Text>
      )}
      {call.has_voicemail && (
        <Text size="sm" data-testid="call-has-voicemail">
          {t('business.calls.has_voicemail')}{' '}
          <Anchor component={Link} to={pathOf('business.voice-records')} size="sm">
            {t('business.calls.voice.title')}
          </Anchor>
        </Text>
      )}

      <Divider label={t('business.calls.legs')} labelPosition="left" />
      {legs.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('business.calls.no_legs')}
        </Text>
      ) : (
        <Timeline bulletSize={14} lineWidth={2} data-testid="call-legs">
          {legs.map((leg) => (
            <Timeline.Item
              key={leg.call_sid}
              color={legColor(leg.status)}
              title={
                <Group gap="xs">
                  <Text size="sm" fw={600}>
                    {t(`business.calls.role.${leg.role}`)}
                  </Text>
                  <Text size="sm">{leg.to}</Text>
                </Group>
              }
              data-testid={`call-leg-${leg.role}`}
            >
              <Group gap="xs" mt={4}>
                <Badge size="sm" color={legColor(leg.status)} variant="light" data-testid="call-leg-status">
                  {t(`business.calls.leg_status.${leg.status}`, { defaultValue: leg.status })}
                </Badge>
                {leg.answered_by?.startsWith('machine') && (
                  <Badge size="sm" color="orange" variant="light">
                    {t('business.calls.answered_by_machine')}
                  </Badge>
                )}
                {leg.digits && (
                  <Badge size="sm" color="grape" variant="light">
                    {t('business.calls.pressed', { digits: leg.digits })}
                  </Badge>
                )}
                {leg.call_sid === claimedSid && (
                  <Badge size="sm" color="green" data-testid="call-leg-claimed">
                    {t('business.calls.claimed')}
                  </Badge>
                )}
              </Group>
              <Text size="xs" c="dimmed" mt={4}>
                {offsetFrom(call.requested_at, leg.updated_at)}
              </Text>
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}
