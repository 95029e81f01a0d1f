import { Badge, Button, Checkbox, Group, Modal, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { pruneText } from '@stn/contracts/format';
import { type TTask, type TTaskStatus, ZTaskRequest } from '@stn/contracts/tasks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BoundForm, SelectField, TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { EditDeleteButtons } from '../../components/list/row-actions.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { useTeamMembers } from '../../lib/pickers.ts';
import { keys } from '../../lib/query-keys.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { TASKS_PATH, useContactChoices, useDeleteTask, useSaveTask, useSetTaskStatus } from './api/tasks.ts';

type StatusFilter = 'all' | TTaskStatus;
type Editing = { task: TTask | null } | null;

/** The business's tasks (route business.tasks): search, status filter, add/edit in a modal, done toggle. */
export default function TasksPage() {
  const { t } = useTranslation();
  // A link may open the list on a status (/business/tasks?filter=open, as the badge's link does).
  const [params] = useSearchParams();
  const asked = params.get('filter') ?? params.get('status');
  const [status, setStatus] = useState<StatusFilter>(
    asked === 'all' || asked === 'done' || asked === 'open' ? asked : 'open',
  );
  const [editing, setEditing] = useState<Editing>(null);
  const setDone = useSetTaskStatus();
  const remove = useDeleteTask();

  const confirmDelete = (row: TTask) =>
    askDelete(
      ['business.tasks.delete_title', 'business.tasks.delete_confirm', 'business.common.delete'],
      { name: row.title },
      () => remove.mutate(row.id),
    );

  const columns: Column<TTask>[] = [
    {
      key: 'done',
      title: t('business.tasks.done'),
      width: 60,
      render: (row) => (
        <Checkbox
          checked={row.status === 'done'}
          onChange={(e) => setDone.mutate({ task: row, done: e.currentTarget.checked })}
          aria-label={t('business.tasks.done')}
          data-testid={`task-done-${row.id}`}
        />
      ),
    },
    {
      key: 'title',
      title: t('business.tasks.title_field'),
      render: (row) => (
        <Stack gap={0}>
          <Text td={row.status === 'done' ? 'line-through' : undefined} data-testid={`task-title-${row.id}`}>
            {row.title}
          </Text>
          {row.description && (
            <Text size="xs" c="dimmed" title={row.description}>
              {pruneText(row.description)}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'contact', title: t('business.tasks.contact'), render: (row) => row.contact?.name ?? '' },
    { key: 'assignee', title: t('business.tasks.assignee'), render: (row) => row.assignee.name },
    { key: 'due', title: t('business.tasks.due_date'), render: (row) => row.due_date ?? '' },
    {
      key: 'status',
      title: t('business.tasks.status'),
      render: (row) => (
        <Badge color={row.status === 'done' ? 'green' : 'blue'} data-testid={`task-status-${row.id}`}>
          {t(`business.tasks.statuses.${row.status}`)}
        </Badge>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('business.tasks.page_title')}
        </Title>
        <Button onClick={() => setEditing({ task: null })} data-testid="tasks-add">
          {t('business.tasks.add')}
        </Button>
      </Group>
      <SegmentedControl
        value={status}
        onChange={(v) => setStatus(v as StatusFilter)}
        data={[
          { value: 'all', label: t('business.tasks.statuses.all') },
          { value: 'open', label: t('business.tasks.statuses.open') },
          { value: 'done', label: t('business.tasks.statuses.done') },
        ]}
        data-testid="tasks-status-filter"
        w="fit-content"
      />
      <DataTable<TTask>
        path={TASKS_PATH}
        queryKey={keys.tasks.list()}
        filters={{ status: status === 'all' ? undefined : status }}
        columns={columns}
        empty={t('business.tasks.empty')}
        testId="tasks-table"
        actions={(row) => (
          <EditDeleteButtons
            name="task"
            id={row.id}
            edit={() => setEditing({ task: row })}
            onDelete={() => confirmDelete(row)}
          />
        )}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.task ? t('business.tasks.edit') : t('business.tasks.add')}
        size="lg"
      >
        {editing && (
          <TaskForm key={editing.task?.id ?? 'new'} task={editing.task} onDone={() => setEditing(null)} />
        )}
      </Modal>
    </Stack>
  );
}

type TaskValues = {
  title: string;
  description: string;
  contact_id: string | null;
  user_id: string;
  due_date: string;
  status: TTaskStatus;
};
const FIELDS = ['title', 'description', 'contact_id', 'user_id', 'due_date', 'status'] as const;

const requestOf = (v: TaskValues) => ({
  title: v.title,
  description: v.description,
  contact_id: v.contact_id ? Number(v.contact_id) : null,
  user_id: v.user_id ? Number(v.user_id) : undefined,
  due_date: v.due_date || null,
  status: v.status,
});
const resolve = zodResolver(ZTaskRequest);

function TaskForm({ task, onDone }: { task: TTask | null; onDone: () => void }) {
  const { t } = useTranslation();
  const me = useAuth().user;
  const save = useSaveTask(task?.id ?? null);
  const assignees = useTeamMembers();
  const [contactSearch, setContactSearch] = useState('');
  const [debounced] = useDebouncedValue(contactSearch, 250);
  const contactChoices = useContactChoices(debounced);
  const { form, submit } = useApiForm<TaskValues>({
    initialValues: {
      title: task?.title ?? '',
      description: task?.description ?? '',
      contact_id: task?.contact_id ? String(task.contact_id) : null,
      user_id: String(task?.user_id ?? me?.id ?? ''),
      due_date: task?.due_date ?? '',
      status: task?.status ?? 'open',
    },
    validate: (v) => resolve(requestOf(v)),
    fields: FIELDS,
    onSubmit: (v) => save.mutateAsync(requestOf(v)),
    onSuccess: onDone,
  });
  const options = new Map<string, string>();
  if (me) options.set(String(me.id), `${me.first_name} ${me.last_name}`.trim() || me.email);
  for (const u of assignees.data ?? [])
    options.set(String(u.id), `${u.first_name} ${u.last_name}`.trim() || u.email);
  if (task) options.set(String(task.user_id), task.assignee.name || String(task.user_id));
  const contacts = new Map<string, string>();
  if (task?.contact) contacts.set(String(task.contact.id), task.contact.name);
  for (const c of contactChoices.data ?? []) contacts.set(String(c.id), c.name || c.phone);
  const contactOptions = [...contacts].map(([value, label]) => ({ value, label }));

  return (
    <BoundForm form={form} onSubmit={submit}>
      <Stack>
        <TextField name="title" label={t('business.tasks.title_field')} required testId="task-form-title" />
        <TextareaField
          name="description"
          label={t('business.tasks.description')}
          testId="task-form-description"
        />
        <SelectField
          name="contact_id"
          label={t('business.tasks.contact')}
          placeholder={t('business.tasks.no_contact')}
          data={contactOptions}
          searchable
          clearable
          onSearchChange={setContactSearch}
          nothingFoundMessage={t('business.tasks.no_contacts_found')}
          testId="task-form-contact"
        />
        <SelectField
          name="user_id"
          label={t('business.tasks.assignee')}
          data={[...options].map(([value, label]) => ({ value, label }))}
          searchable
          allowDeselect={false}
          testId="task-form-assignee"
        />
        <TextField name="due_date" type="date" label={t('business.tasks.due_date')} testId="task-form-due" />
        <SelectField
          name="status"
          label={t('business.tasks.status')}
          data={[
            { value: 'open', label: t('business.tasks.statuses.open') },
            { value: 'done', label: t('business.tasks.statuses.done') },
          ]}
          allowDeselect={false}
          testId="task-form-status"
        />
        <FormActions submitting={save.isPending} submitTestId="task-form-submit" onCancel={onDone} />
      </Stack>
    </BoundForm>
  );
}
