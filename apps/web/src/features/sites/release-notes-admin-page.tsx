import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TReleaseNote } from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { keys } from '../../lib/query-keys.ts';
import { RELEASE_NOTES_PATH, useDeleteReleaseNote } from './api/release-notes.ts';

type Filter = 'all' | 'published' | 'draft';

/** Release notes (admin.releaseNote): every note, published or draft, with edit and delete. */
export default function ReleaseNotesPage() {
  const { t, i18n } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const remove = useDeleteReleaseNote();

  const confirmDelete = (note: TReleaseNote) =>
    modals.openConfirmModal({
      title: t('admin.release_notes.delete_title'),
      children: <Text size="sm">{t('admin.release_notes.delete_text', { title: note.title })}</Text>,
      labels: { confirm: t('admin.release_notes.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-ok' },
      onConfirm: () => remove.mutate(note.id),
    });

  const columns: Column<TReleaseNote>[] = [
    {
      key: 'title',
      title: t('admin.release_notes.title_field'),
      render: (n) => <Text fw={500}>{n.title}</Text>,
    },
    {
      key: 'status',
      title: t('admin.release_notes.status'),
      render: (n) =>
        n.published ? (
          <Badge color="green">{t('admin.release_notes.published')}</Badge>
        ) : (
          <Badge color="gray">{t('admin.release_notes.draft')}</Badge>
        ),
    },
    {
      key: 'date',
      title: t('admin.release_notes.date'),
      render: (n) =>
        new Date(n.published_at).toLocaleDateString(i18n.language === 'br' ? 'pt-BR' : i18n.language),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('menu.release_notes')}
        </Title>
        <Button component={Link} to={pathOf('admin.releaseNote.create')} data-testid="release-note-add">
          {t('admin.release_notes.add')}
        </Button>
      </Group>
      <SegmentedControl
        w="fit-content"
        value={filter}
        onChange={(v) => setFilter(v as Filter)}
        data={[
          { value: 'all', label: t('admin.release_notes.all') },
          { value: 'published', label: t('admin.release_notes.published') },
          { value: 'draft', label: t('admin.release_notes.draft') },
        ]}
      />
      <Paper withBorder p="md" radius="md">
        <DataTable<TReleaseNote>
          path={RELEASE_NOTES_PATH}
          queryKey={keys.releaseNotes.list()}
          filters={{ status: filter === 'all' ? undefined : filter }}
          columns={columns}
          testId="release-note-table"
          actions={(n) => (
            <Group gap="xs" wrap="nowrap" justify="flex-end">
              <Button
                size="xs"
                variant="light"
                component={Link}
                to={pathOf('admin.releaseNote.edit', { id: n.id })}
                data-testid={`release-note-edit-${n.id}`}
              >
                {t('admin.release_notes.edit')}
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => confirmDelete(n)}
                data-testid={`release-note-delete-${n.id}`}
              >
                {t('admin.release_notes.delete')}
              </Button>
            </Group>
          )}
        />
      </Paper>
    </Stack>
  );
}
