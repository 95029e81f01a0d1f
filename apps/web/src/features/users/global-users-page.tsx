import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { GLOBAL_USER_ROLES, type TGlobalUser } from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { useAuth } from '../../lib/auth-store.ts';
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
    modals.openConfirmModal({
      title: t('admin.users.delete_title'),
      children: <Text size="sm">{t('admin.users.delete_text', { email: u.email })}</Text>,
      labels: { confirm: t('admin.users.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-ok' },
      onConfirm: () => remove.mutate(u.id),
    });

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
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('menu.users')}
        </Title>
        <Button component={Link} to={pathOf('admin.users.create')} data-testid="user-add">
          {t('admin.users.add')}
        </Button>
      </Group>
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
            <Group gap="xs" wrap="nowrap" justify="flex-end">
              <Button
                size="xs"
                variant="light"
                component={Link}
                to={pathOf('admin.users.edit', { id: u.id })}
                data-testid={`user-edit-${u.id}`}
              >
                {t('admin.users.edit')}
              </Button>
              {u.id !== me?.id && (
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => confirmDelete(u)}
                  data-testid={`user-delete-${u.id}`}
                >
                  {t('admin.users.delete')}
                </Button>
              )}
            </Group>
          )}
        />
      </Paper>
    </Stack>
  );
}
