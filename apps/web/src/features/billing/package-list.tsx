import { Badge, Group, Stack, Switch, Text } from '@mantine/core';
import type { TPackage } from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowMenu } from '../../components/list/row-actions.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { PACKAGES_PATH, useDeletePackage, useTogglePackage } from './api/packages.ts';
import { formatCents } from './money.ts';

/** The agency's packages of extra messages, calls or installs, with their on-sale switch (spec 000 §2 agency packages). */
export default function PackageList() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const toggle = useTogglePackage();
  const remove = useDeletePackage();

  const confirmDelete = (p: TPackage) =>
    askDelete(
      [
        'agency.packages.confirm.delete_title',
        'agency.packages.confirm.delete_text',
        'agency.packages.delete',
      ],
      { name: p.name },
      () => remove.mutate(p.id),
    );

  const columns: Column<TPackage>[] = [
    {
      key: 'name',
      title: t('agency.packages.name'),
      render: (p) => (
        <Group gap="xs">
          <Text fw={500}>{p.name}</Text>
          {p.order_bump && (
            <Badge size="sm" variant="light" data-testid={`package-order-bump-${p.id}`}>
              {t('agency.packages.order_bump')}
            </Badge>
          )}
        </Group>
      ),
    },
    { key: 'kind', title: t('agency.packages.kind'), render: (p) => t(`agency.packages.kinds.${p.kind}`) },
    { key: 'quantity', title: t('agency.packages.quantity'), render: (p) => p.quantity },
    {
      key: 'price',
      title: t('agency.packages.price'),
      render: (p) => formatCents(p.price_cents, i18n.language),
    },
    {
      key: 'active',
      title: t('agency.packages.active'),
      render: (p) => (
        <Switch
          checked={p.active}
          disabled={toggle.isPending}
          onChange={(e) => toggle.mutate({ id: p.id, active: e.currentTarget.checked })}
          aria-label={t('agency.packages.active')}
          data-testid={`package-active-${p.id}`}
        />
      ),
    },
  ];

  const actions = (p: TPackage) => (
    <RowMenu
      label={t('agency.common.actions')}
      testId={`package-actions-${p.id}`}
      actions={[
        {
          label: t('agency.packages.edit'),
          onClick: () => navigate(pathOf('agency.packages.edit', { id: p.id })),
        },
        { label: t('agency.packages.delete'), color: 'red', onClick: () => confirmDelete(p) },
      ]}
    />
  );

  return (
    <Stack>
      <ListHeader
        title={t('menu.packages')}
        add={{ label: t('agency.packages.add'), to: pathOf('agency.packages.add'), testId: 'package-add' }}
      />
      <DataTable<TPackage>
        path={PACKAGES_PATH}
        queryKey={keys.packages.list()}
        columns={columns}
        actions={actions}
        testId="package-table"
      />
    </Stack>
  );
}
