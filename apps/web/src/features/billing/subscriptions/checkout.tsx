import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { TCouponInfo, TPlanOffer, TSubscriptionState } from '@stn/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardEntry } from '../../../components/card-form.tsx';
import { confirmAction } from '../../../components/list/confirm.tsx';
import { Loading } from '../../../components/load-state.tsx';
import { paymentErrorOf } from '../../../lib/setup-secret.ts';
import {
  useAddPaymentMethod,
  useCouponInfo,
  useMakeDefaultCard,
  usePaymentMethods,
  useSubscribe,
  useUnlimitedPlan,
} from '../api/subscriptions.ts';
import { cardLabel } from '../card-label.ts';
import { formatMoney } from '../money.ts';
import { priceAfterCoupon } from '../plan-display.ts';
import { CouponField } from './coupon-field.tsx';

/** Subscribe to a first plan, change to another (prorated), or move to the unlimited plan. */
export type CheckoutMode = 'subscribe' | 'change' | 'unlimited';

/** What a coupon takes off, and for how long. */
export function CouponSummary({ coupon, currency }: { coupon: TCouponInfo; currency: string }) {
  const { t, i18n } = useTranslation();
  const off =
    coupon.percent_off !== null
      ? `${coupon.percent_off}%`
      : formatMoney(coupon.amount_off_cents ?? 0, currency, i18n.language);
  return (
    <Text size="sm" c="green" data-testid="coupon-summary">
      {t(`billing.coupon.duration.${coupon.duration}`, {
        code: coupon.code,
        off,
        count: coupon.duration_in_months ?? 0,
      })}
    </Text>
  );
}

/**
 * The checkout of one plan: its price (after a coupon), the card that pays (the default one, or the card
 * form when the account has none or the user wants another), then the call. A card Stripe refuses, or a
 * payment that fails, shows Stripe's message here and changes nothing.
 */
export function Checkout(props: {
  plan: TPlanOffer;
  mode: CheckoutMode;
  state: TSubscriptionState;
  onClose: () => void;
}) {
  const { plan, mode } = props;
  const { t, i18n } = useTranslation();
  const cards = usePaymentMethods();
  const subscribe = useSubscribe();
  const unlimited = useUnlimitedPlan();
  const addCard = useAddPaymentMethod();
  const makeDefault = useMakeDefaultCard();
  const couponInfo = useCouponInfo();
  const [coupon, setCoupon] = useState<TCouponInfo | null>(null);
  const [otherCard, setOtherCard] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const money = (cents: number) => formatMoney(cents, plan.currency, i18n.language);
  const per = (cents: number) => t(`billing.per.${plan.interval}`, { price: money(cents) });
  const defaultCard = cards.data?.find((c) => c.is_default) ?? cards.data?.[0];
  const busy = subscribe.isPending || unlimited.isPending || addCard.isPending || makeDefault.isPending;
  const action = t(`billing.checkout.submit.${mode}`);

  /** The call; `pm` a card just set up (attached and made the default first). */
  const buy = async (pm?: string) => {
    if (mode === 'unlimited') {
      if (pm) {
        await addCard.mutateAsync(pm);
        await makeDefault.mutateAsync(pm);
      }
      await unlimited.mutateAsync(plan.interval);
    } else {
      await subscribe.mutateAsync({ plan_id: plan.id, paymentMethod: pm, coupon: coupon?.code });
    }
    props.onClose();
  };

  const payWithDefault = () => {
    const go = async () => {
      setError(null);
      try {
        await buy();
      } catch (err) {
        setError(paymentErrorOf(err));
      }
    };
    if (mode === 'subscribe') void go();
    else
      confirmAction({
        title: t('billing.checkout.confirm_title', { name: plan.name }),
        text: t('billing.checkout.prorated'),
        confirm: action,
        color: 'blue',
        onConfirm: () => void go(),
        testId: 'checkout-confirm-ok',
      });
  };

  return (
    <Paper withBorder p="md" id="checkout" data-testid="checkout" data-mode={mode}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4} data-testid="checkout-title">
            {t(`billing.checkout.title.${mode}`, { name: plan.name })}
          </Title>
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={props.onClose}
            data-testid="checkout-close"
          >
            {t('common.cancel')}
          </Anchor>
        </Group>
        {coupon ? (
          <Group gap="xs">
            <Text td="line-through" c="dimmed" data-testid="checkout-old-price">
              {money(plan.price_cents)}
            </Text>
            <Text fw={700} size="lg" data-testid="coupon-price">
              {per(priceAfterCoupon(plan.price_cents, coupon))}
            </Text>
          </Group>
        ) : (
          <Text fw={700} size="lg" data-testid="checkout-price">
            {per(plan.price_cents)}
          </Text>
        )}
        {coupon && <CouponSummary coupon={coupon} currency={plan.currency} />}
        {mode === 'subscribe' && plan.trial_days > 0 && (
          <Text size="sm" data-testid="checkout-trial">
            {t('billing.checkout.trial', { count: plan.trial_days })}
          </Text>
        )}
        {mode !== 'subscribe' && (
          <Text size="sm" c="dimmed" data-testid="checkout-prorated">
            {t('billing.checkout.prorated')}
          </Text>
        )}
        {mode !== 'unlimited' && (
          <CouponField
            testId="coupon"
            busy={couponInfo.isPending}
            onApply={async (code) => {
              setCoupon(await couponInfo.mutateAsync({ code, plan_id: plan.id }));
            }}
          />
        )}
        {cards.isPending ? (
          <Loading />
        ) : !defaultCard || otherCard ? (
          <Stack gap="xs" data-testid="checkout-card">
            <Text size="sm" fw={500}>
              {t('billing.checkout.card_needed')}
            </Text>
            <CardEntry
              submitLabel={action}
              onPaymentMethod={buy}
              onCancel={defaultCard ? () => setOtherCard(false) : undefined}
            />
          </Stack>
        ) : (
          <Stack gap="xs">
            <Group gap="xs">
              <Text size="sm" data-testid="checkout-pays-with">
                {t('billing.checkout.pays_with', { card: cardLabel(defaultCard) })}
              </Text>
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => setOtherCard(true)}
                data-testid="checkout-other-card"
              >
                {t('billing.checkout.other_card')}
              </Anchor>
            </Group>
            {error && (
              <Alert color="red" variant="light" data-testid="payment-error" role="alert">
                {error}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button loading={busy} onClick={payWithDefault} data-testid="checkout-submit">
                {action}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
