import { ActionIcon, Badge, Button, Group, Menu, Stack, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TPlan } from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { keys } from '../../lib/query-keys.ts';
import { plansPath, useDeletePlan } from './api/plans.ts';
import { formatCents } from './money.ts';

/** The agency's subscription plans (spec 000 §2 agency plans). */
export default function PlanList() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const agencyId = useAuth().user?.agency?.id ?? 0;
  const remove = useDeletePlan(agencyId);

  const confirmDelete = (p: TPlan) =>
    modals.openConfirmModal({
      title: t('agency.plans.confirm.delete_title'),
      children: <Text size="sm">{t('agency.plans.confirm.delete_text', { name: p.name })}</Text>,
      labels: { confirm: t('agency.plans.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-ok' },
      onConfirm: () => remove.mutate(p.id),
    });

  const columns: Column<TPlan>[] = [
    {
      key: 'name',
      title: t('agency.plans.name'),
      render: (p) => (
        <Group gap="xs">
          <Text fw={500}>{p.name}</Text>
          {p.features.Default && <Badge size="sm">{t('agency.plans.features.Default')}</Badge>}
        </Group>
      ),
    },
    {
      key: 'interval',
      title: t('agency.plans.interval'),
      render: (p) => t(`agency.plans.intervals.${p.interval}`),
    },
    {
      key: 'price',
      title: t('agency.plans.price'),
      render: (p) => formatCents(p.price_cents, i18n.language),
    },
    { key: 'trial', title: t('agency.plans.trial_days'), render: (p) => p.trial_days },
    {
      key: 'visible',
      title: t('agency.plans.features.Visible'),
      render: (p) => (p.features.Visible ? t('agency.common.yes') : t('agency.common.no')),
    },
  ];

  const actions = (p: TPlan) => (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          aria-label={t('agency.common.actions')}
          data-testid={`plan-actions-${p.id}`}
        >
          ⋮
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => navigate(pathOf('agency.plans.edit', { id: p.id }))}>
          {t('agency.plans.edit')}
        </Menu.Item>
        <Menu.Item color="red" onClick={() => confirmDelete(p)}>
          {t('agency.plans.delete')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('menu.plans')}
        </Title>
        <Button onClick={() => navigate(pathOf('agency.plans.add'))} data-testid="plan-add">
          {t('agency.plans.add')}
        </Button>
      </Group>
      {agencyId > 0 && (
        <DataTable<TPlan>
          path={plansPath(agencyId)}
          queryKey={keys.plans.list(agencyId)}
          columns={columns}
          actions={actions}
          testId="plan-table"
        />
      )}
    </Stack>
  );
}
