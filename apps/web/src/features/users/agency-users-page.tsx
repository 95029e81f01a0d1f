import { Badge, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TAgencyUser } from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useImpersonationLock } from '../../components/credentials.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowMenu } from '../../components/list/row-actions.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { AGENCY_USERS_PATH, useDeleteAgencyUser, useResetAgencyUserPassword } from './api/agency-users.ts';

/** The agency's own users (spec 000 §2 agency users; AgencyAdmin only, by the route guard). */
export default function AgencyUserList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const remove = useDeleteAgencyUser();
  const reset = useResetAgencyUserPassword();
  // No reset links while acting as another user (ADR 050).
  const lock = useImpersonationLock();

  const confirm = (kind: 'delete' | 'reset_password', u: TAgencyUser) => {
    const name = `${u.first_name} ${u.last_name}`.trim();
    modals.openConfirmModal({
      title: t(`agency.users.confirm.${kind}_title`),
      children: <Text size="sm">{t(`agency.users.confirm.${kind}_text`, { name, email: u.email })}</Text>,
      labels: { confirm: t(`agency.users.actions.${kind}`), cancel: t('common.cancel') },
      confirmProps: { color: kind === 'delete' ? 'red' : 'brand', 'data-testid': 'confirm-ok' },
      onConfirm: () => (kind === 'delete' ? remove.mutate(u.id) : reset.mutate(u.id)),
    });
  };

  const columns: Column<TAgencyUser>[] = [
    {
      key: 'name',
      title: t('agency.users.name'),
      render: (u) => <Text fw={500}>{`${u.first_name} ${u.last_name}`.trim()}</Text>,
    },
    { key: 'email', title: t('agency.users.email'), render: (u) => u.email },
    {
      key: 'type',
      title: t('agency.users.user_type'),
      render: (u) => t(`agency.users.types.${u.user_type}`),
    },
    {
      key: 'active',
      title: t('agency.users.active'),
      render: (u) =>
        u.active ? (
          <Badge color="green">{t('agency.common.yes')}</Badge>
        ) : (
          <Badge color="gray">{t('agency.common.no')}</Badge>
        ),
    },
  ];

  const actions = (u: TAgencyUser) => (
    <RowMenu
      label={t('agency.common.actions')}
      testId={`agency-user-actions-${u.id}`}
      actions={[
        {
          label: t('agency.users.actions.edit'),
          onClick: () => navigate(pathOf('agency.users.edit', { id: u.id })),
        },
        {
          label: t('agency.users.actions.reset_password'),
          onClick: () => confirm('reset_password', u),
          lock,
        },
        {
          label: t('agency.users.actions.delete'),
          color: 'red',
          onClick: () => confirm('delete', u),
          divider: true,
        },
      ]}
    />
  );

  return (
    <Stack>
      <ListHeader
        title={t('agency.users.title')}
        add={{ label: t('agency.users.add'), to: pathOf('agency.users.create'), testId: 'agency-user-add' }}
      />
      <DataTable<TAgencyUser>
        path={AGENCY_USERS_PATH}
        queryKey={keys.users.list('agency')}
        columns={columns}
        actions={actions}
        testId="agency-user-table"
      />
    </Stack>
  );
}
