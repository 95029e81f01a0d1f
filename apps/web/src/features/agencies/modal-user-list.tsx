import { Badge, Stack, Text, Title, Tooltip } from '@mantine/core';
import type { TModalUser } from '@stn/contracts/orders';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/list/data-table.tsx';
import { usePlanOptions } from '../../components/plan-options.ts';
import { formatDate } from '../../lib/format.ts';

// The people who bought through the agency's payment popup (issue 23; GET /v1/agencies/modal-users):
// newest first, searchable, paged by the server. Each row's status says whether the card was charged; a
// failed one shows Stripe's message. There is no Charge action here: a charge needs the visitor's own card
// (POST /v1/agencies/modal-users/charge takes their payment method), which only the popup collects.

export const MODAL_USERS_KEY = ['agencies', 'modal-users'] as const;

const STATUS_COLOR = { new: 'gray', paid: 'green', failed: 'red' } as const;

export function ModalUserList({ agencyId }: { agencyId: number }) {
  const { t } = useTranslation();
  const plans = usePlanOptions(agencyId);
  const planName = (id: number | null) =>
    id === null ? '' : (plans.find((p) => p.value === String(id))?.label ?? `#${id}`);
  return (
    <Stack gap="xs" data-testid="modal-user-list">
      <Title order={3}>{t('agency.popup.buyers.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('agency.popup.buyers.hint')}
      </Text>
      <DataTable<TModalUser>
        path="/v1/agencies/modal-users"
        queryKey={MODAL_USERS_KEY}
        testId="modal-user-table"
        perPage={10}
        minWidth={760}
        empty={t('agency.popup.buyers.empty')}
        columns={[
          { key: 'date', title: t('agency.popup.buyers.date'), render: (r) => formatDate(r.created_at) },
          { key: 'name', title: t('agency.popup.buyers.full_name'), render: (r) => r.full_name },
          {
            key: 'business',
            title: t('agency.popup.buyers.business_name'),
            render: (r) => r.business_name ?? '',
          },
          { key: 'email', title: t('agency.popup.buyers.email'), render: (r) => r.email },
          { key: 'phone', title: t('agency.popup.buyers.phone'), render: (r) => r.phone ?? '' },
          { key: 'plan', title: t('agency.popup.buyers.plan'), render: (r) => planName(r.plan_id) },
          {
            key: 'status',
            title: t('agency.popup.buyers.status'),
            render: (r) => {
              const badge = (
                <Badge color={STATUS_COLOR[r.status]} variant="light" data-testid="modal-user-status">
                  {t(`agency.popup.buyers.statuses.${r.status}`)}
                </Badge>
              );
              return r.status === 'failed' && r.last_error ? (
                <Tooltip label={r.last_error} multiline maw={320}>
                  {badge}
                </Tooltip>
              ) : (
                badge
              );
            },
          },
        ]}
      />
    </Stack>
  );
}
