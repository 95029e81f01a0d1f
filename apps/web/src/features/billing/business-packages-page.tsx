import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { TPackage } from '@stn/contracts/businesses';
import type { TPackagePurchase } from '@stn/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardEntry } from '../../components/card-form.tsx';
import { confirmAction } from '../../components/list/confirm.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { formatDate } from '../../lib/format.ts';
import { paymentErrorOf } from '../../lib/setup-secret.ts';
import {
  useAddPaymentMethod,
  useBusinessPackages,
  usePaymentMethods,
  usePurchasePackage,
} from './api/subscriptions.ts';
import { cardLabel } from './card-label.ts';
import { formatCents } from './money.ts';

/**
 * The business's Packages (spec 000 §2; ADR 076 "Packages"): its agency's packages of extra messages, calls
 * or installs, each bought once with the default card; the purchases below. The answer's user replaces the
 * stored one, so the top bar shows the new cap at once.
 */
export default function BusinessPackagesPage() {
  const { t, i18n } = useTranslation();
  const data = useBusinessPackages();
  const cards = usePaymentMethods();
  const addCard = useAddPaymentMethod();
  const purchase = usePurchasePackage();
  /** A package waiting for a card (the account has none yet). */
  const [needsCard, setNeedsCard] = useState<TPackage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const price = (cents: number) => formatCents(cents, i18n.language);

  const confirmBuy = (pkg: TPackage, card: string) =>
    confirmAction({
      title: t('billing.packages.confirm_title', { name: pkg.name }),
      text: t('billing.packages.confirm_text', { name: pkg.name, price: price(pkg.price_cents), card }),
      confirm: t('billing.packages.buy'),
      color: 'blue',
      testId: 'package-buy-ok',
      onConfirm: () => {
        setError(null);
        purchase.mutateAsync(pkg.id).catch((err) => setError(paymentErrorOf(err)));
      },
    });

  const buy = async (pkg: TPackage) => {
    setError(null);
    // The cards may still be on their way (or have failed to come): they are waited for, never taken for
    // "no card", which would ask a business that has one for a card.
    let list = cards.data;
    if (!list) {
      const again = await cards.refetch();
      if (!again.data) {
        setError(again.error?.message ?? t('common.load_failed'));
        return;
      }
      list = again.data;
    }
    const card = list.find((c) => c.is_default) ?? list[0];
    if (card) confirmBuy(pkg, cardLabel(card));
    else setNeedsCard(pkg);
  };

  return (
    <Stack maw={960}>
      <Title order={2} data-testid="page-title">
        {t('menu.packages')}
      </Title>
      <Text c="dimmed">{t('billing.packages.intro')}</Text>
      {error && (
        <Text c="red" data-testid="payment-error" role="alert">
          {error}
        </Text>
      )}
      {needsCard && (
        <Paper withBorder p="md" data-testid="package-card-panel">
          <Stack gap="sm">
            <Title order={4}>{t('billing.packages.card_first', { name: needsCard.name })}</Title>
            <CardEntry
              submitLabel={t('billing.packages.save_card')}
              onPaymentMethod={async (pm) => {
                const saved = await addCard.mutateAsync(pm);
                const pkg = needsCard;
                setNeedsCard(null);
                const card = saved.find((c) => c.id === pm) ?? saved[0];
                confirmBuy(pkg, card ? cardLabel(card) : '');
              }}
              onCancel={() => setNeedsCard(null)}
            />
          </Stack>
        </Paper>
      )}
      {data.isPending ? (
        <Loading />
      ) : !data.data ? (
        <LoadFailed message={data.error?.message} />
      ) : (
        <>
          {data.data.packages.length === 0 ? (
            <Text c="dimmed" data-testid="packages-empty">
              {t('billing.packages.empty')}
            </Text>
          ) : (
            <Group align="stretch" data-testid="package-cards">
              {data.data.packages.map((pkg) => (
                <Paper key={pkg.id} withBorder p="md" w={240} data-testid={`package-card-${pkg.id}`}>
                  <Stack gap="xs" h="100%">
                    <Title order={4}>{pkg.name}</Title>
                    <Text>{t(`billing.packages.adds.${pkg.kind}`, { count: pkg.quantity })}</Text>
                    <Text size="xl" fw={700}>
                      {price(pkg.price_cents)}
                    </Text>
                    <Button
                      mt="auto"
                      loading={purchase.isPending && purchase.variables === pkg.id}
                      onClick={() => void buy(pkg)}
                      data-testid={`package-buy-${pkg.id}`}
                    >
                      {t('billing.packages.buy')}
                    </Button>
                  </Stack>
                </Paper>
              ))}
            </Group>
          )}
          <Purchases purchases={data.data.purchases} />
        </>
      )}
    </Stack>
  );
}

function Purchases({ purchases }: { purchases: TPackagePurchase[] }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack gap="xs">
      <Title order={3}>{t('billing.packages.purchases')}</Title>
      {purchases.length === 0 ? (
        <Text c="dimmed" data-testid="purchases-empty">
          {t('billing.packages.no_purchases')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table data-testid="purchase-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('billing.invoices.date')}</Table.Th>
                <Table.Th>{t('agency.packages.name')}</Table.Th>
                <Table.Th>{t('agency.packages.kind')}</Table.Th>
                <Table.Th>{t('agency.packages.quantity')}</Table.Th>
                <Table.Th>{t('agency.packages.price')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {purchases.map((p) => (
                <Table.Tr key={p.id} data-testid="purchase-row">
                  <Table.Td>{formatDate(p.created_at)}</Table.Td>
                  <Table.Td>{p.name}</Table.Td>
                  <Table.Td>{t(`agency.packages.kinds.${p.kind}`, { defaultValue: p.kind })}</Table.Td>
                  <Table.Td>{p.quantity}</Table.Td>
                  <Table.Td>{formatCents(p.price_cents, i18n.language)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={p.source === 'card' ? 'blue' : 'grape'}>
                      {t(`billing.packages.source.${p.source}`)}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
