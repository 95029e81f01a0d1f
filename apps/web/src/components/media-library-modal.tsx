import {
  Button,
  FileButton,
  Group,
  Image,
  Loader,
  Modal,
  SimpleGrid,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client.ts';
import { fileDataUrl, type LibraryMedia, useMediaLibrary, useUploadMedia } from '../lib/media-library.ts';

const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/**
 * The business's media library as a picker (ADR 039): a grid of thumbnails, newest first, "Load more"
 * appending the next page, an upload that joins the library (and is picked), and "Attach" handing the
 * picked images to the caller. At most `max` images may be picked.
 */
export function MediaLibraryModal({
  opened,
  onClose,
  max,
  onPick,
}: {
  opened: boolean;
  onClose: () => void;
  max: number;
  onPick: (media: LibraryMedia[]) => void;
}) {
  const { t } = useTranslation();
  const library = useMediaLibrary(opened);
  const upload = useUploadMedia();
  const [picked, setPicked] = useState<LibraryMedia[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!opened) {
      setPicked([]);
      setError(null);
    }
  }, [opened]);

  const items = library.data?.pages.flatMap((p) => p.data) ?? [];
  const total = library.data?.pages[0]?.meta.total ?? 0;
  const isPicked = (m: LibraryMedia) => picked.some((p) => p.id === m.id);
  const toggle = (m: LibraryMedia) =>
    setPicked((cur) =>
      cur.some((p) => p.id === m.id) ? cur.filter((p) => p.id !== m.id) : [...cur, m].slice(0, max),
    );

  const uploadFiles = async (files: File[]) => {
    setError(null);
    for (const file of files) {
      if (!file.type.startsWith('image/')) {
        setError(t('media_library.images_only'));
        continue;
      }
      try {
        const media = await upload.mutateAsync({ data: await fileDataUrl(file), name: file.name });
        setPicked((cur) => (cur.length < max ? [...cur, media] : cur));
      } catch (err) {
        setError(
          err instanceof ApiError
            ? (Object.values(err.body?.errors ?? {})[0]?.[0] ?? err.message)
            : t('media_library.upload_failed'),
        );
      }
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('media_library.title')}
      size="xl"
      data-testid="media-library"
    >
      <Stack gap="sm">
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('media_library.hint', { max })}
          </Text>
          <FileButton onChange={(files) => void uploadFiles(files)} accept={ACCEPT} multiple>
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="default"
                loading={upload.isPending}
                data-testid="library-upload"
              >
                {t('media_library.upload')}
              </Button>
            )}
          </FileButton>
        </Group>
        {error && (
          <Text size="sm" c="red" role="alert" data-testid="library-error">
            {error}
          </Text>
        )}
        {library.isPending ? (
          <Group justify="center" p="md">
            <Loader size="sm" aria-label={t('common.loading')} />
          </Group>
        ) : library.isError ? (
          <Text size="sm" c="red" role="alert">
            {t('common.load_failed')}
          </Text>
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="library-empty">
            {t('media_library.empty')}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 3, sm: 5 }} spacing="xs" data-testid="library-grid">
            {items.map((m) => {
              const on = isPicked(m);
              const full = !on && picked.length >= max;
              return (
                <UnstyledButton
                  key={m.id}
                  onClick={() => toggle(m)}
                  disabled={full}
                  aria-pressed={on}
                  aria-label={m.name || t('media_library.image')}
                  data-testid={`library-item-${m.id}`}
                  style={{
                    borderRadius: 6,
                    outline: on
                      ? '3px solid var(--mantine-color-blue-6)'
                      : '1px solid var(--mantine-color-gray-3)',
                    opacity: full ? 0.4 : 1,
                    overflow: 'hidden',
                  }}
                >
                  <Image src={m.url} h={96} fit="cover" alt={m.name} loading="lazy" />
                </UnstyledButton>
              );
            })}
          </SimpleGrid>
        )}
        {library.hasNextPage && (
          <Group justify="center">
            <Button
              variant="subtle"
              size="xs"
              onClick={() => void library.fetchNextPage()}
              loading={library.isFetchingNextPage}
              data-testid="library-load-more"
            >
              {t('media_library.load_more', { shown: items.length, total })}
            </Button>
          </Group>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('media_library.cancel')}
          </Button>
          <Button
            disabled={picked.length === 0}
            onClick={() => {
              onPick(picked);
              onClose();
            }}
            data-testid="library-attach"
          >
            {t('media_library.attach', { count: picked.length })}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
