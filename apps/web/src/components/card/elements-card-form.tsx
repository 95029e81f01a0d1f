import { Box, Stack, Text } from '@mantine/core';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CardActions, CardError, type CardFormProps, useCardResult } from './card-result.tsx';

// The card form with real Stripe keys: Stripe Elements' card field, and confirmCardSetup (which runs the
// bank's authentication itself). Its own lazy chunk (card-form.tsx): the sandbox's form never loads it,
// and Stripe.js is only fetched when this form first shows (the `pure` entry loads nothing on import).

const loaded = new Map<string, Promise<Stripe | null>>();
function stripeOf(publishableKey: string): Promise<Stripe | null> {
  let promise = loaded.get(publishableKey);
  if (!promise) {
    promise = loadStripe(publishableKey);
    loaded.set(publishableKey, promise);
  }
  return promise;
}

export default function ElementsCardForm(props: CardFormProps) {
  return (
    <Elements stripe={stripeOf(props.secret.publishable_key)}>
      <ElementsForm {...props} />
    </Elements>
  );
}

function ElementsForm({ secret, onPaymentMethod, submitLabel, onCancel }: CardFormProps) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const { error, setError, busy, setBusy, finish } = useCardResult(onPaymentMethod);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setBusy(true);
    setError(null);
    try {
      const result = await stripe.confirmCardSetup(secret.client_secret, { payment_method: { card } });
      const pm = result.setupIntent?.payment_method;
      const id = typeof pm === 'string' ? pm : pm?.id;
      if (result.error || !id) setError(result.error?.message ?? t('billing.card.failed'));
      else await finish(id);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} data-testid="card-form" data-sandbox="false">
      <Stack gap="sm">
        <Text size="sm" fw={500}>
          {t('billing.card.card')}
        </Text>
        <Box
          p="sm"
          data-testid="card-element"
          style={{
            border: '1px solid var(--mantine-color-gray-4)',
            borderRadius: 'var(--mantine-radius-sm)',
          }}
        >
          <CardElement options={{ hidePostalCode: true, style: { base: { fontSize: '16px' } } }} />
        </Box>
        <CardError message={error} />
        <CardActions busy={busy || !stripe} label={submitLabel} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
