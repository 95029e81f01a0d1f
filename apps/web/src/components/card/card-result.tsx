import { Alert, Button, Group } from '@mantine/core';
import type { TSetupSecret } from '@stn/contracts/subscriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentErrorOf } from '../../lib/setup-secret.ts';

// What both card forms (the sandbox's and Stripe Elements) share: their props, the error they show, and the
// step after Stripe set the card up (the caller's own call with the payment method id).

export type CardFormProps = {
  secret: TSetupSecret;
  /**
   * Called with the new payment method's id once Stripe set the card up (save it, subscribe with it). A
   * rejection's message (a 422's) is shown in the form, and what the user typed stays.
   */
  onPaymentMethod: (paymentMethodId: string) => Promise<unknown> | unknown;
  /** The submit button's text ("Save card" unless given). */
  submitLabel?: string;
  onCancel?: () => void;
};

/** The form's error and busy state, and `finish`, which hands the payment method to the caller. */
export function useCardResult(onPaymentMethod: CardFormProps['onPaymentMethod']) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const finish = async (paymentMethod: string) => {
    try {
      await onPaymentMethod(paymentMethod);
    } catch (err) {
      setError(paymentErrorOf(err));
    }
  };
  return { error, setError, busy, setBusy, finish };
}

/** Stripe's message (or the API's) where the user looks: in the form. */
export function CardError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert color="red" variant="light" data-testid="payment-error" role="alert">
      {message}
    </Alert>
  );
}

export function CardActions({
  busy,
  label,
  onCancel,
}: {
  busy: boolean;
  label?: string;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      {onCancel && (
        <Button variant="default" onClick={onCancel} disabled={busy} data-testid="card-cancel">
          {t('common.cancel')}
        </Button>
      )}
      <Button type="submit" loading={busy} data-testid="card-submit">
        {label ?? t('billing.card.save')}
      </Button>
    </Group>
  );
}
