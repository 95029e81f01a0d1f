import { Alert, Button, Group, Stack, Switch, Title } from '@mantine/core';
import type { TDepartment } from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { EditDeleteButtons } from '../../components/list/row-actions.tsx';
import { type ActiveFilter, ActiveFilterControl, statusParam } from '../../components/list/status-filter.tsx';
import { Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import {
  DEPARTMENTS_PATH,
  useDeleteDepartment,
  useDepartmentsAccess,
  useToggleDepartment,
} from './api/departments.ts';

/**
 * The business's departments (route business.departments). When departments are not enabled for the
 * business the list call answers 403 with a message, which the page shows instead of the list.
 */
export default function DepartmentsPage() {
  const { t } = useTranslation();
  const access = useDepartmentsAccess();
  const [status, setStatus] = useState<ActiveFilter>('all');
  const toggle = useToggleDepartment();
  const remove = useDeleteDepartment();

  const title = (
    <Title order={2} data-testid="page-title">
      {t('business.departments.title')}
    </Title>
  );
  if (access.isPending)
    return (
      <Stack>
        {title}
        <Loading />
      </Stack>
    );
  if (access.isError)
    return (
      <Stack>
        {title}
        <Alert color="yellow" data-testid="departments-disabled">
          {access.error instanceof ApiError && access.error.body?.message
            ? access.error.body.message
            : t('business.common.load_failed')}
        </Alert>
      </Stack>
    );

  const confirmDelete = (row: TDepartment) =>
    askDelete(
      ['business.departments.delete_title', 'business.departments.delete_confirm', 'business.common.delete'],
      { name: row.name },
      () => remove.mutate(row.id),
    );

  const columns: Column<TDepartment>[] = [
    { key: 'name', title: t('business.departments.name'), render: (d) => d.name },
    {
      key: 'sms',
      title: t('business.departments.sms_agents'),
      render: (d) => <span data-testid={`department-sms-count-${d.id}`}>{d.sms_agents.length}</span>,
    },
    { key: 'voice', title: t('business.departments.voice_agents'), render: (d) => d.voice_agents.length },
    {
      key: 'active',
      title: t('business.common.active'),
      render: (d) => (
        <Switch
          checked={d.active}
          onChange={(e) => toggle.mutate({ id: d.id, active: e.currentTarget.checked })}
          aria-label={t('business.common.active')}
          data-testid={`department-active-${d.id}`}
        />
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between">
        {title}
        <Button component={Link} to={pathOf('business.departments.create')} data-testid="departments-add">
          {t('business.departments.add')}
        </Button>
      </Group>
      <ActiveFilterControl value={status} onChange={setStatus} />
      <DataTable<TDepartment>
        path={DEPARTMENTS_PATH}
        queryKey={keys.departments.list()}
        filters={{ status: statusParam(status) }}
        columns={columns}
        testId="departments-table"
        actions={(d) => (
          <EditDeleteButtons
            name="department"
            id={d.id}
            edit={pathOf('business.departments.edit', { id: d.id })}
            onDelete={() => confirmDelete(d)}
          />
        )}
      />
    </Stack>
  );
}
