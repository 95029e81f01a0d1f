import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { renewSetupSecret, useSetupSecret } from '../lib/setup-secret.ts';
import type { CardFormProps } from './card/card-result.tsx';
import { SandboxCardForm } from './card/sandbox-card-form.tsx';
import { LoadFailed, Loading } from './load-state.tsx';

// The card form (ADR 076 "Card entry"): given a setup intent's secret it collects a card and hands the
// payment method id to its caller; the card number never reaches our API. The Stripe sandbox's own form,
// or Stripe Elements with real keys (a lazy chunk of its own, with Stripe.js).

export type { CardFormProps } from './card/card-result.tsx';

const ElementsCardForm = lazy(() => import('./card/elements-card-form.tsx'));

export function CardForm(props: CardFormProps) {
  if (props.secret.sandbox) return <SandboxCardForm {...props} />;
  return (
    <Suspense fallback={<Loading />}>
      <ElementsCardForm {...props} />
    </Suspense>
  );
}

/**
 * The card form with its setup intent: the signed-in account's, or (order pages) the seller's of `domain`.
 * Once a card is set up, a new intent is asked for, so that a failed next step can be tried again.
 */
export function CardEntry({
  domain = null,
  ...props
}: Omit<CardFormProps, 'secret'> & { domain?: string | null }) {
  const { t } = useTranslation();
  const secret = useSetupSecret(domain);
  if (secret.isPending) return <Loading />;
  if (!secret.data)
    return (
      <LoadFailed
        message={secret.error?.message ?? t('billing.card.secret_failed')}
        testId="card-secret-failed"
      />
    );
  return (
    <CardForm
      {...props}
      secret={secret.data}
      onPaymentMethod={async (pm) => {
        renewSetupSecret(domain);
        await props.onPaymentMethod(pm);
      }}
    />
  );
}
