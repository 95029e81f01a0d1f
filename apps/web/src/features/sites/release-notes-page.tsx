import {
  Card,
  Center,
  Container,
  Loader,
  Pagination,
  Stack,
  Text,
  Title,
  TypographyStylesProvider,
} from '@mantine/core';
import type { TReleaseNote } from '@stn/contracts/users';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';
import { formatDate } from '../../lib/format.ts';
import { keys } from '../../lib/query-keys.ts';

const PER_PAGE = 10;

/** Release notes as everyone reads them: the public /release-notes page and the agencies' menu item. */
export default function ReleaseNotesPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const notes = useQuery({
    queryKey: keys.releaseNotes.published(page),
    queryFn: () =>
      api<{ data: TReleaseNote[]; meta: { total: number } }>('/v1/release-notes/list', {
        query: { page, perPage: PER_PAGE },
        silent: true,
      }),
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((notes.data?.meta.total ?? 0) / PER_PAGE));
  return (
    <Container size="md" py="xl">
      <Title order={2} mb="lg" data-testid="page-title">
        {t('menu.release_notes')}
      </Title>
      {notes.isPending ? (
        <Center>
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack>
          {notes.data?.data.length === 0 && <Text c="dimmed">{t('common.empty')}</Text>}
          {notes.data?.data.map((note) => (
            <Card key={note.id} withBorder data-testid="release-note">
              <Title order={4}>{note.title}</Title>
              <Text size="xs" c="dimmed" mb="sm">
                {formatDate(note.published_at, 'long')}
              </Text>
              {/* Written by platform admins only; shown as text, never as HTML. */}
              <TypographyStylesProvider>
                <Text style={{ whiteSpace: 'pre-wrap' }}>{note.content}</Text>
              </TypographyStylesProvider>
            </Card>
          ))}
          {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} siblings={2} />}
        </Stack>
      )}
    </Container>
  );
}
