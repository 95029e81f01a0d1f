import { Button, Group, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/** A coupon code and its Apply button; an unknown code's message shows under the field. */
export function CouponField(props: {
  /** `${testId}-code` and `${testId}-apply`. */
  testId: string;
  busy: boolean;
  onApply: (code: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const apply = async () => {
    if (!code.trim()) {
      setError(t('billing.coupon.required'));
      return;
    }
    setError(null);
    try {
      await props.onApply(code.trim());
    } catch (err) {
      setError(err instanceof ApiError ? (err.field('code') ?? err.message) : t('billing.card.failed'));
    }
  };
  return (
    <Group align="flex-start" gap="xs">
      <TextInput
        label={t('billing.coupon.label')}
        placeholder={t('billing.coupon.placeholder')}
        value={code}
        onChange={(e) => {
          setCode(e.currentTarget.value);
          setError(null);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void apply();
          }
        }}
        error={error}
        data-testid={`${props.testId}-code`}
      />
      <Button
        variant="default"
        mt={25}
        loading={props.busy}
        onClick={() => void apply()}
        data-testid={`${props.testId}-apply`}
      >
        {t('billing.coupon.apply')}
      </Button>
    </Group>
  );
}
