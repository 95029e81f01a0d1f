import { Alert, Button, Group, Loader } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAudioUrl } from './api/calls.ts';

/**
 * Plays audio the API serves behind the bearer token (a call's recording, a voicemail). An <audio src>
 * cannot send the token, so the bytes are fetched through the API client when the person asks to play
 * them, and the element plays an object URL of that blob (revoked when the player goes away).
 */
export function RecordingPlayer(props: {
  path: string;
  testId: string;
  /** A list with one player at a time says which one is playing; alone, the player keeps it itself. */
  active?: boolean;
  onPlay?: () => void;
}) {
  const { path, testId } = props;
  const { t } = useTranslation();
  const [own, setOwn] = useState(false);
  const wanted = props.active ?? own;
  const audio = useAudioUrl(path, wanted);
  if (!wanted)
    return (
      <Button
        variant="light"
        size="xs"
        onClick={() => (props.onPlay ? props.onPlay() : setOwn(true))}
        data-testid={`${testId}-play`}
      >
        {t('business.calls.play')}
      </Button>
    );
  if (audio.error)
    return (
      <Alert color="red" data-testid={`${testId}-error`}>
        {audio.error.code === 'NOT_FOUND' ? t('business.calls.recording_missing') : t('common.load_failed')}
      </Alert>
    );
  if (!audio.url)
    return (
      <Group>
        <Loader size="xs" />
      </Group>
    );
  return (
    // A recording has no captions to offer: it is the call's sound itself.
    // biome-ignore lint/a11y/useMediaCaption: recordings of phone calls have no caption track
    <audio
      controls
      autoPlay
      preload="metadata"
      src={audio.url}
      data-testid={testId}
      style={{ width: '100%' }}
    />
  );
}
