import { Badge, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import type { TReleaseNote } from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { formatDate } from '../../lib/format.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { RELEASE_NOTES_PATH, useDeleteReleaseNote } from './api/release-notes.ts';

type Filter = 'all' | 'published' | 'draft';

/** Release notes (admin.releaseNote): every note, published or draft, with edit and delete. */
export default function ReleaseNotesPage() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<Filter>('all');
  const remove = useDeleteReleaseNote();

  const confirmDelete = (note: TReleaseNote) =>
    askDelete(
      ['admin.release_notes.delete_title', 'admin.release_notes.delete_text', 'admin.release_notes.delete'],
      { title: note.title },
      () => remove.mutate(note.id),
    );

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
      render: (n) => formatDate(n.published_at),
    },
  ];

  return (
    <Stack>
      <ListHeader
        title={t('menu.release_notes')}
        add={{
          label: t('admin.release_notes.add'),
          to: pathOf('admin.releaseNote.create'),
          testId: 'release-note-add',
        }}
      />
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
            <RowButtons
              actions={[
                {
                  label: t('admin.release_notes.edit'),
                  to: pathOf('admin.releaseNote.edit', { id: n.id }),
                  testId: `release-note-edit-${n.id}`,
                },
                {
                  label: t('admin.release_notes.delete'),
                  color: 'red',
                  onClick: () => confirmDelete(n),
                  testId: `release-note-delete-${n.id}`,
                },
              ]}
            />
          )}
        />
      </Paper>
    </Stack>
  );
}
