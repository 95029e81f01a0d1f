import { Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { CardEntry } from '../../components/card-form.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useAddPaymentMethod } from './api/subscriptions.ts';
import { localRedirect } from './local-redirect.ts';

/** The business's Add card screen: the card form alone, then back to where the user came from. */
export default function AddCardPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const add = useAddPaymentMethod();
  const back = localRedirect(params.get('redirect')) ?? pathOf('business.payment-methods');
  return (
    <Stack maw={560}>
      <Title order={2} data-testid="page-title">
        {t('order.add_card')}
      </Title>
      <Text c="dimmed">{t('billing.cards.add_intro')}</Text>
      <Paper withBorder p="md">
        <CardEntry
          onPaymentMethod={async (pm) => {
            await add.mutateAsync(pm);
            navigate(back);
          }}
          onCancel={() => navigate(back)}
        />
      </Paper>
    </Stack>
  );
}
