import { Badge, Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TBusinessUser } from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { keys } from '../../lib/query-keys.ts';
import { BUSINESS_USERS_PATH, useDeleteBusinessUser } from './api/business-users.ts';
import { useRoleLabel } from './user-labels.ts';

type Status = 'all' | 'active' | 'inactive';

/** The business's users (route business.users): name, e-mail, role or type, agent type, active. */
export default function UsersPage() {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const [status, setStatus] = useState<Status>('all');
  const remove = useDeleteBusinessUser();
  const roleLabel = useRoleLabel();

  const confirmDelete = (row: TBusinessUser) =>
    modals.openConfirmModal({
      title: t('business.users.delete_title'),
      children: <Text size="sm">{t('business.users.delete_confirm', { name: fullName(row) })}</Text>,
      labels: { confirm: t('business.common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, string>,
      onConfirm: () => remove.mutate(row.id),
    });

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
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('business.users.title')}
        </Title>
        <Button component={Link} to={pathOf('business.users.create')} data-testid="users-add">
          {t('business.users.add')}
        </Button>
      </Group>
      <SegmentedControl
        w="fit-content"
        value={status}
        onChange={(v) => setStatus(v as Status)}
        data={(['all', 'active', 'inactive'] as const).map((value) => ({
          value,
          label: t(`business.common.status.${value}`),
        }))}
        data-testid="users-status"
      />
      <DataTable<TBusinessUser>
        path={BUSINESS_USERS_PATH}
        queryKey={keys.users.list('business')}
        filters={{ status: status === 'all' ? undefined : status }}
        columns={columns}
        testId="users-table"
        actions={(u) => (
          <Group gap="xs" justify="flex-end" wrap="nowrap">
            <Button
              size="xs"
              variant="light"
              component={Link}
              to={pathOf('business.users.edit', { id: u.id })}
              data-testid={`user-edit-${u.id}`}
            >
              {t('business.common.edit')}
            </Button>
            {!u.is_owner && u.id !== me?.id && (
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => confirmDelete(u)}
                data-testid={`user-delete-${u.id}`}
              >
                {t('business.common.delete')}
              </Button>
            )}
          </Group>
        )}
      />
    </Stack>
  );
}

export function fullName(u: { first_name: string; last_name: string }) {
  return `${u.first_name} ${u.last_name}`.trim();
}
