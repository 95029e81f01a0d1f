import { Badge, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { TPaymentMethod } from '@stn/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardEntry } from '../../components/card-form.tsx';
import { confirmAction } from '../../components/list/confirm.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import {
  useAddPaymentMethod,
  useDeleteCard,
  useMakeDefaultCard,
  usePaymentMethods,
} from './api/subscriptions.ts';
import { cardExpiry, cardLabel } from './card-label.ts';

/** The account's saved cards (agency and business Payment Methods): add, make default, delete. */
export default function PaymentMethodsPage() {
  const { t } = useTranslation();
  const cards = usePaymentMethods();
  const add = useAddPaymentMethod();
  const [adding, setAdding] = useState(false);

  return (
    <Stack maw={860}>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('menu.payment_methods')}
        </Title>
        {!adding && (
          <Button onClick={() => setAdding(true)} data-testid="card-add">
            {t('billing.cards.add')}
          </Button>
        )}
      </Group>
      {adding && (
        <Paper withBorder p="md" data-testid="card-add-panel">
          <Stack>
            <Title order={4}>{t('billing.cards.add')}</Title>
            <CardEntry
              onPaymentMethod={async (pm) => {
                await add.mutateAsync(pm);
                setAdding(false);
              }}
              onCancel={() => setAdding(false)}
            />
          </Stack>
        </Paper>
      )}
      {cards.isPending ? (
        <Loading />
      ) : cards.data ? (
        <CardTable cards={cards.data} />
      ) : (
        <LoadFailed message={cards.error?.message} />
      )}
    </Stack>
  );
}

function CardTable({ cards }: { cards: TPaymentMethod[] }) {
  const { t } = useTranslation();
  const makeDefault = useMakeDefaultCard();
  const remove = useDeleteCard();
  if (cards.length === 0)
    return (
      <Text c="dimmed" data-testid="cards-empty">
        {t('billing.cards.empty')}
      </Text>
    );
  const askDelete = (card: TPaymentMethod) =>
    confirmAction({
      title: t('billing.cards.delete_title'),
      text: t('billing.cards.delete_text', { card: cardLabel(card) }),
      confirm: t('billing.cards.delete'),
      onConfirm: () => remove.mutate(card.id),
      testId: 'card-delete-ok',
    });
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table data-testid="card-table" verticalSpacing="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('billing.cards.card')}</Table.Th>
            <Table.Th>{t('billing.cards.expires')}</Table.Th>
            <Table.Th />
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {cards.map((card) => (
            <Table.Tr key={card.id} data-testid={`card-row-${card.id}`} data-default={card.is_default}>
              <Table.Td fw={500}>{cardLabel(card)}</Table.Td>
              <Table.Td>{cardExpiry(card)}</Table.Td>
              <Table.Td>
                {card.is_default && (
                  <Badge color="green" variant="light" data-testid="card-default">
                    {t('billing.cards.default')}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  {!card.is_default && (
                    <Button
                      size="xs"
                      variant="light"
                      loading={makeDefault.isPending && makeDefault.variables === card.id}
                      onClick={() => makeDefault.mutate(card.id)}
                      data-testid={`card-make-default-${card.id}`}
                    >
                      {t('billing.cards.make_default')}
                    </Button>
                  )}
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    loading={remove.isPending && remove.variables === card.id}
                    onClick={() => askDelete(card)}
                    data-testid={`card-delete-${card.id}`}
                  >
                    {t('billing.cards.delete')}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {remove.error && (
        <Text c="red" size="sm" mt="xs" data-testid="card-delete-error">
          {remove.error.message}
        </Text>
      )}
    </Table.ScrollContainer>
  );
}
