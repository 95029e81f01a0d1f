import { Alert, Group, Stack, TextInput } from '@mantine/core';
import type { TSetupSecret } from '@stn/contracts/subscriptions';
import { forwardRef, useImperativeHandle, useState } from 'react';
import { useTranslation } from 'react-i18next';

// A minimal card form for the order pages until the shared one (features/billing/card-form.tsx) is merged:
// with the Stripe sandbox's keys it posts the card to the sandbox's setup-intent confirmation, as Stripe.js
// does, and resolves to the payment method id. The card number never reaches our API.

export type CardFormHandle = {
  /** Confirms the setup intent with the card typed; resolves to the payment method id, rejects with Stripe's message. */
  confirm: () => Promise<string>;
};

const digits = (v: string) => v.replace(/\D/g, '');

export const CardForm = forwardRef<CardFormHandle, { secret: TSetupSecret }>(function CardForm(
  { secret },
  ref,
) {
  const { t } = useTranslation();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  useImperativeHandle(ref, () => ({
    async confirm() {
      if (!secret.sandbox) throw new Error(t('orderPages.card_unavailable'));
      const [mm, yy] = expiry.split('/').map((s) => digits(s));
      const id = secret.client_secret.split('_secret_')[0] ?? '';
      const res = await fetch(`/stripe-sandbox/v1/setup_intents/${encodeURIComponent(id)}/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secret.publishable_key}` },
        body: JSON.stringify({
          client_secret: secret.client_secret,
          card: {
            number: digits(number),
            exp_month: Number(mm),
            exp_year: Number(yy && yy.length === 2 ? `20${yy}` : yy),
            cvc: digits(cvc),
          },
        }),
      });
      const body = (await res.json().catch(() => null)) as {
        payment_method?: string | { id: string };
        error?: { message?: string };
        last_setup_error?: { message?: string };
      } | null;
      const pm = body?.payment_method;
      if (res.ok && pm) return typeof pm === 'string' ? pm : pm.id;
      throw new Error(body?.error?.message ?? body?.last_setup_error?.message ?? t('orderPages.card_failed'));
    },
  }));
  return (
    <Stack gap="xs">
      <TextInput
        label={t('orderPages.card_number')}
        value={number}
        onChange={(e) => setNumber(e.currentTarget.value)}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        data-testid="card-number"
      />
      <Group grow>
        <TextInput
          label={t('orderPages.card_expiry')}
          value={expiry}
          onChange={(e) => setExpiry(e.currentTarget.value)}
          autoComplete="cc-exp"
          placeholder="MM/YY"
          data-testid="card-expiry"
        />
        <TextInput
          label={t('orderPages.card_cvc')}
          value={cvc}
          onChange={(e) => setCvc(e.currentTarget.value)}
          autoComplete="cc-csc"
          placeholder="123"
          data-testid="card-cvc"
        />
      </Group>
      {!secret.sandbox && <Alert color="yellow">{t('orderPages.card_unavailable')}</Alert>}
    </Stack>
  );
});
