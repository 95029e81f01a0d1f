import { Badge, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { GLOBAL_USER_ROLES, type TGlobalUser } from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { USERS_PATH, useDeleteGlobalUser } from './api/global-users.ts';

type RoleFilter = 'all' | (typeof GLOBAL_USER_ROLES)[number];

/** Platform users (admin.users, SuperAdmin only): SuperAdmins and Admins, with edit and delete. */
export default function UsersPage() {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const [role, setRole] = useState<RoleFilter>('all');
  const remove = useDeleteGlobalUser();

  const confirmDelete = (u: TGlobalUser) =>
    askDelete(
      ['admin.users.delete_title', 'admin.users.delete_text', 'admin.users.delete'],
      { email: u.email },
      () => remove.mutate(u.id),
    );

  const columns: Column<TGlobalUser>[] = [
    {
      key: 'name',
      title: t('admin.users.name'),
      render: (u) => <Text fw={500}>{`${u.first_name} ${u.last_name}`.trim()}</Text>,
    },
    { key: 'email', title: t('admin.users.email'), render: (u) => u.email },
    { key: 'role', title: t('admin.users.role'), render: (u) => t(`admin.users.roles.${u.role}`) },
    {
      key: 'active',
      title: t('admin.users.active'),
      render: (u) =>
        u.active ? (
          <Badge color="green">{t('admin.common.yes')}</Badge>
        ) : (
          <Badge color="gray">{t('admin.common.no')}</Badge>
        ),
    },
  ];

  return (
    <Stack>
      <ListHeader
        title={t('menu.users')}
        add={{ label: t('admin.users.add'), to: pathOf('admin.users.create'), testId: 'user-add' }}
      />
      <SegmentedControl
        w="fit-content"
        value={role}
        onChange={(v) => setRole(v as RoleFilter)}
        data={[
          { value: 'all', label: t('admin.users.all') },
          ...GLOBAL_USER_ROLES.map((r) => ({ value: r, label: t(`admin.users.roles.${r}`) })),
        ]}
      />
      <Paper withBorder p="md" radius="md">
        <DataTable<TGlobalUser>
          path={USERS_PATH}
          queryKey={keys.users.list('global')}
          filters={{ role: role === 'all' ? undefined : role }}
          columns={columns}
          testId="user-table"
          actions={(u) => (
            <RowButtons
              actions={[
                {
                  label: t('admin.users.edit'),
                  to: pathOf('admin.users.edit', { id: u.id }),
                  testId: `user-edit-${u.id}`,
                },
                {
                  label: t('admin.users.delete'),
                  color: 'red',
                  onClick: () => confirmDelete(u),
                  testId: `user-delete-${u.id}`,
                  hidden: u.id === me?.id,
                },
              ]}
            />
          )}
        />
      </Paper>
    </Stack>
  );
}
