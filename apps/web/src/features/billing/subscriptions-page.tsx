import { Alert, Badge, Button, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import type { TPlanOffer, TSubscriptionState } from '@stn/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmAction } from '../../components/list/confirm.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { formatDate } from '../../lib/format.ts';
import {
  useApplyCoupon,
  useCancelSubscription,
  usePlanOffers,
  useResumeSubscription,
  useSubscriptionState,
} from './api/subscriptions.ts';
import { formatMoney } from './money.ts';
import { isLive, needsPayment, startPeriod, statusBadge } from './plan-display.ts';
import { Checkout, type CheckoutMode } from './subscriptions/checkout.tsx';
import { CouponField } from './subscriptions/coupon-field.tsx';
import { InvoiceTable } from './subscriptions/invoice-table.tsx';
import { PayNow } from './subscriptions/pay-now.tsx';
import { PlanCard } from './subscriptions/plan-card.tsx';

/**
 * Subscriptions (agency and business, spec 000 §2; ADR 076): the account's subscription and its state,
 * Pay now while a payment failed, the plans it can buy (Subscribe, or Change to a plan, prorated), coupons,
 * cancel and resume, the unlimited plan, and the invoices. A held account sees it under the held notice.
 */
export default function SubscriptionsPage() {
  const { t } = useTranslation();
  const state = useSubscriptionState();
  return (
    <Stack maw={1100}>
      <Title order={2} data-testid="page-title">
        {t('menu.subscriptions')}
      </Title>
      {state.isPending ? (
        <Loading />
      ) : state.data ? (
        <>
          <CurrentSubscription state={state.data} />
          {state.data.can_buy ? (
            <PlanChooser state={state.data} />
          ) : (
            <Alert color="gray" data-testid="subscription-cannot-buy">
              {t('billing.subscription.cannot_buy')}
            </Alert>
          )}
          <InvoiceTable />
        </>
      ) : (
        <LoadFailed message={state.error?.message} testId="subscription-load-failed" />
      )}
    </Stack>
  );
}

function CurrentSubscription({ state }: { state: TSubscriptionState }) {
  const { t, i18n } = useTranslation();
  const { user } = useAuth();
  const cancel = useCancelSubscription();
  const resume = useResumeSubscription();
  const [paying, setPaying] = useState(false);
  const badge = statusBadge(state);
  const plan = state.plan;
  const live = isLive(state);
  const userId = user?.id ?? 0;

  const askCancel = () =>
    confirmAction({
      title: t('billing.subscription.cancel_title'),
      text: t('billing.subscription.cancel_text', { date: formatDate(state.current_period_end) }),
      confirm: t('billing.subscription.cancel'),
      cancel: t('billing.subscription.keep'),
      onConfirm: () => cancel.mutate(userId),
      testId: 'subscription-cancel-ok',
    });

  return (
    <Paper withBorder p="md" data-testid="subscription-current" data-status={state.status}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Stack gap={2}>
            <Text size="sm" c="dimmed">
              {t('billing.subscription.current')}
            </Text>
            <Title order={3} data-testid="subscription-plan">
              {plan ? plan.name : t('billing.subscription.no_plan')}
            </Title>
            {plan && (
              <Text data-testid="subscription-price">
                {t(`billing.per.${plan.interval}`, {
                  price: formatMoney(plan.price_cents, plan.currency, i18n.language),
                })}
              </Text>
            )}
          </Stack>
          <Badge
            size="lg"
            color={badge.color}
            variant={badge.color === 'red' ? 'filled' : 'light'}
            data-testid="subscription-status"
            data-status={state.status}
          >
            {t(`billing.status.${badge.key}`, { date: formatDate(badge.date) })}
          </Badge>
        </Group>
        {state.status === 'active' && !state.cancel_at_period_end && state.current_period_end && (
          <Text size="sm" c="dimmed" data-testid="subscription-renews">
            {t('billing.subscription.renews', { date: formatDate(state.current_period_end) })}
          </Text>
        )}
        {state.coupon && (
          <Text size="sm" data-testid="subscription-coupon-info">
            {t('billing.coupon.on_subscription', { code: state.coupon.code })}
          </Text>
        )}
        {state.last_error && (
          <Alert color="red" variant="light" data-testid="subscription-last-error">
            {t('billing.subscription.last_error', { message: state.last_error })}
          </Alert>
        )}
        {needsPayment(state) && !paying && (
          <Button color="red" w="fit-content" onClick={() => setPaying(true)} data-testid="pay-now">
            {t('billing.pay.pay_now')}
          </Button>
        )}
        {paying && <PayNow state={state} onDone={() => setPaying(false)} />}
        {live && (
          <Group gap="sm">
            {state.cancel_at_period_end ? (
              <Button
                variant="light"
                loading={resume.isPending}
                onClick={() => resume.mutate(userId)}
                data-testid="subscription-resume"
              >
                {t('billing.subscription.resume')}
              </Button>
            ) : (
              <Button
                variant="subtle"
                color="red"
                loading={cancel.isPending}
                onClick={askCancel}
                data-testid="subscription-cancel"
              >
                {t('billing.subscription.cancel')}
              </Button>
            )}
          </Group>
        )}
        {live && !state.coupon && <SubscriptionCoupon />}
      </Stack>
    </Paper>
  );
}

/** A coupon for the live subscription (POST coupon/apply). */
function SubscriptionCoupon() {
  const apply = useApplyCoupon();
  return (
    <CouponField
      testId="subscription-coupon"
      busy={apply.isPending}
      onApply={async (code) => {
        await apply.mutateAsync(code);
      }}
    />
  );
}

type Selection = { plan: TPlanOffer; mode: CheckoutMode } | null;

function PlanChooser({ state }: { state: TSubscriptionState }) {
  const { t } = useTranslation();
  const all = usePlanOffers('all');
  const [chosenPeriod, setPeriod] = useState<TPlanOffer['interval']>(startPeriod(state));
  const periods = [...new Set((all.data ?? []).map((o) => o.interval))];
  // Only one period sold: that one, and no switch.
  const period = periods.length === 1 && periods[0] ? periods[0] : chosenPeriod;
  const offers = usePlanOffers(period);
  const [selected, setSelected] = useState<Selection>(null);
  const live = isLive(state);
  const unlimited = offers.data?.find((o) => o.unlimited && o.id !== state.plan?.id);

  const choose = (plan: TPlanOffer, mode: CheckoutMode) => {
    setSelected({ plan, mode });
    window.setTimeout(() => document.getElementById('checkout')?.scrollIntoView({ behavior: 'smooth' }), 0);
  };

  return (
    <Stack data-testid="plan-chooser">
      <Group justify="space-between">
        <Title order={3}>{live ? t('billing.plans.change_title') : t('billing.plans.title')}</Title>
        <Group gap="sm">
          {unlimited && (
            <Button
              variant="light"
              onClick={() => choose(unlimited, 'unlimited')}
              data-testid="plan-unlimited"
            >
              {t('billing.plans.unlimited')}
            </Button>
          )}
          {periods.length !== 1 && (
            <SegmentedControl
              value={period}
              onChange={(v) => {
                setPeriod(v as TPlanOffer['interval']);
                setSelected(null);
              }}
              data={[
                { value: 'month', label: t('billing.plans.monthly') },
                { value: 'year', label: t('billing.plans.yearly') },
              ]}
              data-testid="plan-period"
            />
          )}
        </Group>
      </Group>
      {offers.isPending ? (
        <Loading />
      ) : !offers.data ? (
        <LoadFailed message={offers.error?.message} />
      ) : offers.data.length === 0 ? (
        <Text c="dimmed" data-testid="plans-empty">
          {t('billing.plans.empty')}
        </Text>
      ) : (
        <Group align="stretch" gap="md" data-testid="plan-cards">
          {offers.data.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              current={live && state.plan?.id === plan.id}
              live={live}
              selected={selected?.plan.id === plan.id}
              onChoose={() => choose(plan, live ? 'change' : 'subscribe')}
            />
          ))}
        </Group>
      )}
      {selected && (
        <Checkout
          key={`${selected.plan.id}-${selected.mode}`}
          plan={selected.plan}
          mode={selected.mode}
          state={state}
          onClose={() => setSelected(null)}
        />
      )}
    </Stack>
  );
}
