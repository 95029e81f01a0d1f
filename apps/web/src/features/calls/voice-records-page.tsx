import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { TVoiceRecord } from '@stn/contracts/telephony';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { formatDate } from '../../lib/format.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { useDeleteVoiceRecord, VOICE_RECORDS_PATH, voiceRecordAudioPath } from './api/calls.ts';
import { formatSeconds } from './call-format.ts';
import { OwnCallsNote } from './own-calls-note.tsx';
import { RecordingPlayer } from './recording-player.tsx';

/** The voicemails visitors left after a missed callback (route business.voice-records): play, delete. */
export default function VoiceRecordsPage() {
  const { t } = useTranslation();
  const remove = useDeleteVoiceRecord();
  // One player at a time: opening another record's player closes the first (and frees its audio).
  const [playing, setPlaying] = useState<number | null>(null);

  const confirmDelete = (row: TVoiceRecord) =>
    askDelete(
      ['business.calls.voice.delete_title', 'business.calls.voice.delete_confirm', 'business.common.delete'],
      { phone: row.from },
      () => remove.mutate(row.id),
      'voice-record-delete-ok',
    );

  const columns: Column<TVoiceRecord>[] = [
    {
      key: 'created',
      title: t('business.calls.voice.left_at'),
      render: (v) => formatDate(v.created_at, 'short'),
    },
    {
      key: 'from',
      title: t('business.calls.voice.from'),
      render: (v) => <span data-testid={`voice-record-from-${v.id}`}>{v.from}</span>,
    },
    { key: 'install', title: t('business.calls.install'), render: (v) => v.install_name },
    { key: 'duration', title: t('business.calls.duration'), render: (v) => formatSeconds(v.duration) },
    {
      key: 'audio',
      title: t('business.calls.recording'),
      width: 320,
      render: (v) => (
        <RecordingPlayer
          path={voiceRecordAudioPath(v.id)}
          testId={`voice-record-audio-${v.id}`}
          active={playing === v.id}
          onPlay={() => setPlaying(v.id)}
        />
      ),
    },
  ];

  return (
    <Stack>
      <Title order={2} data-testid="page-title">
        {t('business.calls.voice.title')}
      </Title>
      <OwnCallsNote textKey="business.calls.voice.own_only" />
      <Text c="dimmed" size="sm">
        {t('business.calls.voice.hint')}
      </Text>
      <DataTable<TVoiceRecord>
        path={VOICE_RECORDS_PATH}
        queryKey={keys.voiceRecords.list()}
        columns={columns}
        empty={t('business.calls.voice.empty')}
        testId="voice-records-table"
        minWidth={720}
        actions={(v) => (
          <Group justify="flex-end" gap="xs" wrap="nowrap">
            {v.call_id !== null && (
              <Button
                size="xs"
                variant="subtle"
                component={Link}
                to={`${pathOf('business.calls')}?call=${v.call_id}`}
                data-testid={`voice-record-call-${v.id}`}
              >
                {t('business.calls.voice.open_call')}
              </Button>
            )}
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => confirmDelete(v)}
              data-testid={`voice-record-delete-${v.id}`}
            >
              {t('business.common.delete')}
            </Button>
          </Group>
        )}
      />
    </Stack>
  );
}
