import { Button, Group, Modal, Stack, Title } from '@mantine/core';
import { ZTagWrite } from '@stn/contracts/contacts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BoundForm, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable, useSelection } from '../../components/list/data-table.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { keys } from '../../lib/query-keys.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { TAGS_PATH, type TTagRow, useBulkDeleteTags, useDeleteTag, useSaveTag } from './api/tags.ts';

type Editing = { tag: TTagRow | null } | null;

/** The business's tags (route business.tags): add, rename, delete one, delete the picked ones. */
export default function TagsPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing>(null);
  const selection = useSelection<number>();
  const remove = useDeleteTag();
  const bulk = useBulkDeleteTags();

  const confirmDelete = (row: TTagRow) =>
    askDelete(
      ['business.tags.delete_title', 'business.tags.delete_confirm', 'business.common.delete'],
      { name: row.name },
      () => remove.mutate(row.id, { onSuccess: () => selection.drop([row.id]) }),
    );
  const confirmBulk = () => {
    const ids = [...selection.selected];
    askDelete(
      ['business.tags.bulk_delete_title', 'business.tags.bulk_delete_confirm', 'business.common.delete'],
      { count: ids.length },
      () => bulk.mutate(ids, { onSuccess: () => selection.drop(ids) }),
    );
  };

  const columns: Column<TTagRow>[] = [
    { key: 'name', title: t('business.tags.name'), render: (row) => row.name },
    { key: 'contacts', title: t('business.tags.contacts'), render: (row) => row.contacts ?? 0 },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('business.tags.title')}
        </Title>
        <Group>
          <Button
            color="red"
            variant="light"
            disabled={selection.selected.length === 0}
            onClick={confirmBulk}
            data-testid="tags-bulk-delete"
          >
            {t('business.tags.bulk_delete', { count: selection.selected.length })}
          </Button>
          <Button onClick={() => setEditing({ tag: null })} data-testid="tags-add">
            {t('business.tags.add')}
          </Button>
        </Group>
      </Group>
      <DataTable<TTagRow>
        path={TAGS_PATH}
        queryKey={keys.tags.list()}
        columns={columns}
        empty={t('business.tags.empty')}
        testId="tags-table"
        selection={{
          selected: selection.selected,
          toggle: selection.toggle,
          label: (row) => row.name,
          testId: (row) => `tag-select-${row.id}`,
        }}
        actions={(row) => (
          <RowButtons
            actions={[
              {
                label: t('business.tags.rename'),
                onClick: () => setEditing({ tag: row }),
                testId: `tag-edit-${row.id}`,
              },
              {
                label: t('business.common.delete'),
                color: 'red',
                onClick: () => confirmDelete(row),
                testId: `tag-delete-${row.id}`,
              },
            ]}
          />
        )}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.tag ? t('business.tags.rename') : t('business.tags.add')}
      >
        {editing && (
          <TagForm key={editing.tag?.id ?? 'new'} tag={editing.tag} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}

const resolve = zodResolver(ZTagWrite);

function TagForm({ tag, onDone }: { tag: TTagRow | null; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveTag(tag?.id ?? null);
  const { form, submit } = useApiForm<{ name: string }>({
    initialValues: { name: tag?.name ?? '' },
    validate: (v) => resolve(v),
    fields: ['name'],
    onSubmit: (v) => save.mutateAsync({ name: v.name.trim() }),
    onSuccess: onDone,
  });
  return (
    <BoundForm form={form} onSubmit={submit}>
      <Stack>
        <TextField
          name="name"
          label={t('business.tags.name')}
          required
          data-autofocus
          testId="tag-form-name"
        />
        <FormActions submitting={save.isPending} submitTestId="tag-form-submit" onCancel={onDone} />
      </Stack>
    </BoundForm>
  );
}
