import { Badge, Group, Stack, Text } from '@mantine/core';
import type { TPlan } from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { askDelete } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RowMenu } from '../../components/list/row-actions.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import { plansPath, useDeletePlan } from './api/plans.ts';
import { CouponsSection } from './coupons-section.tsx';
import { formatCents } from './money.ts';

/** The agency's subscription plans (spec 000 §2 agency plans), and its coupon codes (ADR 076). */
export default function PlanList() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const agency = useAuth().user?.agency;
  const agencyId = agency?.id ?? 0;
  const remove = useDeletePlan(agencyId);

  const confirmDelete = (p: TPlan) =>
    askDelete(
      ['agency.plans.confirm.delete_title', 'agency.plans.confirm.delete_text', 'agency.plans.delete'],
      { name: p.name },
      () => remove.mutate(p.id),
    );

  const columns: Column<TPlan>[] = [
    {
      key: 'name',
      title: t('agency.plans.name'),
      render: (p) => (
        <Group gap="xs">
          <Text fw={500}>{p.name}</Text>
          {p.features.Default && <Badge size="sm">{t('agency.plans.features.Default')}</Badge>}
          {/* The main agency sells plans to agencies too (ADR 076): say which buyers a plan is for. */}
          {agency?.is_main && (
            <Badge size="sm" variant="light" color={p.type === 'agency' ? 'grape' : 'gray'}>
              {t(`agency.plans.types.${p.type}`)}
            </Badge>
          )}
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
    <RowMenu
      label={t('agency.common.actions')}
      testId={`plan-actions-${p.id}`}
      actions={[
        { label: t('agency.plans.edit'), onClick: () => navigate(pathOf('agency.plans.edit', { id: p.id })) },
        { label: t('agency.plans.delete'), color: 'red', onClick: () => confirmDelete(p) },
      ]}
    />
  );

  return (
    <Stack>
      <ListHeader
        title={t('menu.plans')}
        add={{ label: t('agency.plans.add'), to: pathOf('agency.plans.add'), testId: 'plan-add' }}
      />
      {agencyId > 0 && (
        <DataTable<TPlan>
          path={plansPath(agencyId)}
          queryKey={keys.plans.list(agencyId)}
          columns={columns}
          actions={actions}
          testId="plan-table"
        />
      )}
      {agencyId > 0 && <CouponsSection />}
    </Stack>
  );
}
