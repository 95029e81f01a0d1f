import { ActionIcon, Button, Group, Menu, Stack, Switch, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TPackage } from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { keys } from '../../lib/query-keys.ts';
import { PACKAGES_PATH, useDeletePackage, useTogglePackage } from './api/packages.ts';
import { formatCents } from './money.ts';

/** The agency's packages of extra messages or calls, with their on-sale switch (spec 000 §2 agency packages). */
export default function PackageList() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const toggle = useTogglePackage();
  const remove = useDeletePackage();

  const confirmDelete = (p: TPackage) =>
    modals.openConfirmModal({
      title: t('agency.packages.confirm.delete_title'),
      children: <Text size="sm">{t('agency.packages.confirm.delete_text', { name: p.name })}</Text>,
      labels: { confirm: t('agency.packages.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-ok' },
      onConfirm: () => remove.mutate(p.id),
    });

  const columns: Column<TPackage>[] = [
    { key: 'name', title: t('agency.packages.name'), render: (p) => <Text fw={500}>{p.name}</Text> },
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
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          aria-label={t('agency.common.actions')}
          data-testid={`package-actions-${p.id}`}
        >
          ⋮
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => navigate(pathOf('agency.packages.edit', { id: p.id }))}>
          {t('agency.packages.edit')}
        </Menu.Item>
        <Menu.Item color="red" onClick={() => confirmDelete(p)}>
          {t('agency.packages.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('menu.packages')}
        </Title>
        <Button onClick={() => navigate(pathOf('agency.packages.add'))} data-testid="package-add">
          {t('agency.packages.add')}
        </Button>
      </Group>
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
