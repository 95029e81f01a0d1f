import { Alert, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import type { TSubscriptionState } from '@stn/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardEntry } from '../../../components/card-form.tsx';
import { Loading } from '../../../components/load-state.tsx';
import { paymentErrorOf } from '../../../lib/setup-secret.ts';
import {
  useAddPaymentMethod,
  useMakeDefaultCard,
  usePaymentMethods,
  useSubscribe,
} from '../api/subscriptions.ts';
import { cardExpiry, cardLabel } from '../card-label.ts';

/**
 * Pay now, after a payment failed: the chosen card becomes the default, which pays the open invoice
 * (ADR 076 "Past due"); a subscription whose first payment failed (incomplete) is subscribed again to its
 * plan with that card. A new card is set up first.
 */
export function PayNow({ state, onDone }: { state: TSubscriptionState; onDone: () => void }) {
  const { t } = useTranslation();
  const cards = usePaymentMethods();
  const makeDefault = useMakeDefaultCard();
  const addCard = useAddPaymentMethod();
  const subscribe = useSubscribe();
  const [picked, setPicked] = useState<string | null>(null);
  const [newCard, setNewCard] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const busy = makeDefault.isPending || addCard.isPending || subscribe.isPending;
  const chosen = picked ?? cards.data?.find((c) => c.is_default)?.id ?? cards.data?.[0]?.id ?? null;

  const pay = async (card: string, isNew: boolean) => {
    if (state.status === 'incomplete' && state.plan) {
      await subscribe.mutateAsync({ plan_id: state.plan.id, paymentMethod: card });
    } else {
      if (isNew) await addCard.mutateAsync(card);
      await makeDefault.mutateAsync(card);
    }
    onDone();
  };

  const payWithChosen = async () => {
    if (!chosen) return;
    setError(null);
    try {
      await pay(chosen, false);
    } catch (err) {
      setError(paymentErrorOf(err));
    }
  };

  return (
    <Paper withBorder p="md" data-testid="pay-now-panel">
      <Stack gap="sm">
        <Title order={4}>{t('billing.pay.title')}</Title>
        {cards.isPending ? (
          <Loading />
        ) : newCard || !cards.data?.length ? (
          <CardEntry
            submitLabel={t('billing.pay.pay')}
            onPaymentMethod={(pm) => pay(pm, true)}
            onCancel={cards.data?.length ? () => setNewCard(false) : onDone}
          />
        ) : (
          <>
            <Radio.Group value={chosen} onChange={setPicked} label={t('billing.pay.choose')}>
              <Stack gap="xs" mt="xs">
                {cards.data.map((card) => (
                  <Radio
                    key={card.id}
                    value={card.id}
                    label={`${cardLabel(card)} · ${cardExpiry(card)}`}
                    data-testid={`pay-card-${card.id}`}
                  />
                ))}
              </Stack>
            </Radio.Group>
            {error && (
              <Alert color="red" variant="light" data-testid="payment-error" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="space-between">
              <Button variant="subtle" onClick={() => setNewCard(true)} data-testid="pay-new-card">
                {t('billing.pay.new_card')}
              </Button>
              <Group gap="xs">
                <Button variant="default" onClick={onDone} disabled={busy}>
                  {t('common.cancel')}
                </Button>
                <Button
                  color="red"
                  loading={busy}
                  onClick={() => void payWithChosen()}
                  data-testid="pay-submit"
                >
                  {t('billing.pay.pay')}
                </Button>
              </Group>
            </Group>
          </>
        )}
        <Text size="xs" c="dimmed">
          {t('billing.pay.note')}
        </Text>
      </Stack>
    </Paper>
  );
}
