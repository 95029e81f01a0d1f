import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** Script chunk load timeout (spec 000 §9): a screen's code not there after this is reported as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** The browsers' words for a lazy import that failed (Chromium, Firefox, Safari) and Vite's preload error. */
const CHUNK_ERROR =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError/i;

export function isChunkLoadError(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { name, message } = error as { name?: unknown; message?: unknown };
  return name === 'ChunkLoadError' || (typeof message === 'string' && CHUNK_ERROR.test(message));
}

/** The screen's code could not be loaded: say so, with a button that loads the page again. */
export function ChunkLoadFailed() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" p="xl" data-testid="chunk-load-failed">
      <Stack align="center" maw={480}>
        <Text ta="center" size="lg" role="alert">
          {t('chunk_load.failed')}
        </Text>
        <Button onClick={() => window.location.reload()} data-testid="chunk-load-reload">
          {t('chunk_load.reload')}
        </Button>
      </Stack>
    </Center>
  );
}

/**
 * Suspense fallback while a screen's code loads: a loader after a short moment (no flash on a fast
 * line), and the failure after CHUNK_LOAD_TIMEOUT_MS, since a hanging request never rejects by itself.
 */
export function ChunkPending({ timeoutMs = CHUNK_LOAD_TIMEOUT_MS }: { timeoutMs?: number }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'quiet' | 'loading' | 'failed'>('quiet');
  useEffect(() => {
    const show = setTimeout(() => setState('loading'), 300);
    const fail = setTimeout(() => setState('failed'), timeoutMs);
    return () => {
      clearTimeout(show);
      clearTimeout(fail);
    };
  }, [timeoutMs]);
  if (state === 'failed') return <ChunkLoadFailed />;
  if (state === 'quiet') return null;
  return (
    <Center py="xl" data-testid="chunk-loading">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

/** The router's error element: a chunk that failed to load gets the reload message, never a blank page. */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  if (isChunkLoadError(error)) return <ChunkLoadFailed />;
  // Anything else: the generic failure, without internals (spec 000 §8: error texts are not shown).
  return (
    <Center mih="60vh" p="xl" data-testid="route-error">
      <Stack align="center" maw={480}>
        <Text ta="center" size="lg" role="alert">
          {t('common.load_failed')}
        </Text>
        <Button onClick={() => window.location.reload()}>{t('chunk_load.reload')}</Button>
      </Stack>
    </Center>
  );
}
