import { Button, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type CardValues, cardOf, cardProblems, formatCardNumber, formatExpiry } from './card-model.ts';
import { CardActions, CardError, type CardFormProps, useCardResult } from './card-result.tsx';
import { authenticateSandboxSetup, confirmSandboxSetup, type SetupOutcome } from './sandbox-setup.ts';

/**
 * The card form of the platform's Stripe sandbox (ADR 076): the card goes to the emulator's setup intent,
 * as Stripe.js sends it to Stripe; a card that asks for authentication (4000 0025 0000 3155) gets the bank's
 * step, like Stripe's 3D Secure test page.
 */
export function SandboxCardForm({ secret, onPaymentMethod, submitLabel, onCancel }: CardFormProps) {
  const { t } = useTranslation();
  const { error, setError, busy, setBusy, finish } = useCardResult(onPaymentMethod);
  const [authenticating, setAuthenticating] = useState(false);
  const form = useForm<CardValues>({
    initialValues: { number: '', expiry: '', cvc: '' },
    validate: (v) =>
      Object.fromEntries(
        Object.entries(cardProblems(v)).map(([field, key]) => [field, t(`billing.card.errors.${key}`)]),
      ),
  });
  const fallback = t('billing.card.failed');

  const settle = async (outcome: SetupOutcome) => {
    if (outcome.kind === 'requires_action') {
      setAuthenticating(true);
      return;
    }
    setAuthenticating(false);
    if (outcome.kind === 'error') setError(outcome.message);
    else await finish(outcome.paymentMethod);
  };

  const run = async (step: () => Promise<SetupOutcome>) => {
    setBusy(true);
    setError(null);
    try {
      await settle(await step());
    } finally {
      setBusy(false);
    }
  };

  const submit = form.onSubmit((values) => run(() => confirmSandboxSetup(secret, cardOf(values), fallback)));
  const authenticate = (outcome: 'complete' | 'fail') =>
    run(() => authenticateSandboxSetup(secret, outcome, fallback));

  return (
    <form noValidate onSubmit={submit} data-testid="card-form" data-sandbox="true">
      <Stack gap="sm">
        <TextInput
          label={t('billing.card.number')}
          placeholder="4242 4242 4242 4242"
          inputMode="numeric"
          autoComplete="cc-number"
          required
          data-testid="card-number"
          {...form.getInputProps('number')}
          onChange={(e) => form.setFieldValue('number', formatCardNumber(e.currentTarget.value))}
        />
        <SimpleGrid cols={2}>
          <TextInput
            label={t('billing.card.expiry')}
            placeholder={t('billing.card.expiry_placeholder')}
            inputMode="numeric"
            autoComplete="cc-exp"
            required
            data-testid="card-expiry"
            {...form.getInputProps('expiry')}
            onChange={(e) => form.setFieldValue('expiry', formatExpiry(e.currentTarget.value))}
          />
          <TextInput
            label={t('billing.card.cvc')}
            placeholder="123"
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={4}
            required
            data-testid="card-cvc"
            {...form.getInputProps('cvc')}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed" data-testid="card-sandbox-hint">
          {t('billing.card.sandbox_hint')}
        </Text>
        <CardError message={error} />
        <CardActions busy={busy} label={submitLabel} onCancel={onCancel} />
      </Stack>
      <Modal
        opened={authenticating}
        onClose={() => void authenticate('fail')}
        title={t('billing.card.auth_title')}
        centered
      >
        <Stack data-testid="card-auth">
          <Text size="sm">{t('billing.card.auth_text')}</Text>
          <Group justify="flex-end">
            <Button
              variant="default"
              color="red"
              disabled={busy}
              onClick={() => void authenticate('fail')}
              data-testid="card-auth-fail"
            >
              {t('billing.card.auth_fail')}
            </Button>
            <Button
              loading={busy}
              onClick={() => void authenticate('complete')}
              data-testid="card-auth-complete"
            >
              {t('billing.card.auth_complete')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </form>
  );
}
