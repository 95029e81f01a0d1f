import { Badge, Stack } from '@mantine/core';
import type { TBusinessUser } from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { EditDeleteButtons } from '../../components/list/row-actions.tsx';
import { type ActiveFilter, ActiveFilterControl, statusParam } from '../../components/list/status-filter.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { BUSINESS_USERS_PATH, useDeleteBusinessUser } from './api/business-users.ts';
import { useRoleLabel } from './user-labels.ts';

/** The business's users (route business.users): name, e-mail, role or type, agent type, active. */
export default function UsersPage() {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const [status, setStatus] = useState<ActiveFilter>('all');
  const remove = useDeleteBusinessUser();
  const roleLabel = useRoleLabel();

  const confirmDelete = (row: TBusinessUser) =>
    askDelete(
      ['business.users.delete_title', 'business.users.delete_confirm', 'business.common.delete'],
      { name: fullName(row) },
      () => remove.mutate(row.id),
      'confirm-delete',
    );

  const columns: Column<TBusinessUser>[] = [
    { key: 'name', title: t('business.users.name'), render: (u) => fullName(u) },
    { key: 'email', title: t('business.users.email'), render: (u) => u.email },
    { key: 'role', title: t('business.users.role'), render: (u) => roleLabel(u.role, u.user_type) },
    {
      key: 'agent',
      title: t('business.users.agent_type'),
      render: (u) => t(`business.users.agent_types.${u.agent_type ?? 'none'}`),
    },
    {
      key: 'active',
      title: t('business.common.active'),
      render: (u) => (
        <Badge color={u.active ? 'green' : 'gray'} variant="light">
          {u.active ? t('business.common.yes') : t('business.common.no')}
        </Badge>
      ),
    },
  ];

  return (
    <Stack>
      <ListHeader
        title={t('business.users.title')}
        add={{ label: t('business.users.add'), to: pathOf('business.users.create'), testId: 'users-add' }}
      />
      <ActiveFilterControl value={status} onChange={setStatus} testId="users-status" />
      <DataTable<TBusinessUser>
        path={BUSINESS_USERS_PATH}
        queryKey={keys.users.list('business')}
        filters={{ status: statusParam(status) }}
        columns={columns}
        testId="users-table"
        actions={(u) => (
          <EditDeleteButtons
            name="user"
            id={u.id}
            edit={pathOf('business.users.edit', { id: u.id })}
            onDelete={() => confirmDelete(u)}
            hideDelete={u.is_owner || u.id === me?.id}
          />
        )}
      />
    </Stack>
  );
}

export function fullName(u: { first_name: string; last_name: string }) {
  return `${u.first_name} ${u.last_name}`.trim();
}
