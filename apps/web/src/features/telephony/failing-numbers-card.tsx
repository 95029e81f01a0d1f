import { ActionIcon, Alert, Button, Card, Group, Select, Stack, Table, Text, Title } from '@mantine/core';
import { SANDBOX_FAIL_CODES } from '@stn/contracts/telephony';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PhoneField } from '../../components/phone-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useFailingNumbers, useFailNumber } from './api/sandbox-phones.ts';

/**
 * Sandbox Phones (issue 19): make the agency's texts to a phone fail with a carrier error code, as a real
 * number would (an opted-out recipient, a landline, a filtered message...), and make it work again.
 */
export function FailingNumbersCard() {
  const { t } = useTranslation();
  const failing = useFailingNumbers();
  const fail = useFailNumber();
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState<string>(String(SANDBOX_FAIL_CODES[0]));
  const error = fail.error instanceof ApiError ? fail.error : null;
  const codeLabel = (c: number) => `${c} · ${t(`sandbox_phones.fail_codes.${c}`)}`;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    fail.mutate({ phone, code: Number(code) }, { onSuccess: () => setPhone('') });
  };

  return (
    <Card withBorder radius="md" padding="md" component="form" onSubmit={submit} data-testid="failing-form">
      <Stack gap="sm">
        <Title order={4}>{t('sandbox_phones.fail_title')}</Title>
        <Text size="sm" c="dimmed">
          {t('sandbox_phones.fail_hint')}
        </Text>
        <PhoneField
          label={t('sandbox_phones.fail_phone')}
          value={phone}
          onChange={setPhone}
          required
          error={error?.field('number')}
          data-testid="failing-phone"
        />
        <Select
          label={t('sandbox_phones.fail_code')}
          data={SANDBOX_FAIL_CODES.map((c) => ({ value: String(c), label: codeLabel(c) }))}
          value={code}
          onChange={(v) => v && setCode(v)}
          allowDeselect={false}
          error={error?.field('code')}
          data-testid="failing-code"
        />
        <Button type="submit" loading={fail.isPending} disabled={!phone} data-testid="failing-submit">
          {t('sandbox_phones.fail_submit')}
        </Button>
        {error && !error.field('number') && !error.field('code') && (
          <Alert color="red" data-testid="failing-error">
            {error.message}
          </Alert>
        )}
        {(failing.data ?? []).length > 0 && (
          <Table data-testid="failing-list">
            <Table.Tbody>
              {(failing.data ?? []).map((f) => (
                <Table.Tr key={f.phone} data-testid="failing-row">
                  <Table.Td>{f.phone}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{codeLabel(f.code)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group justify="flex-end">
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('sandbox_phones.fail_clear', { phone: f.phone })}
                        title={t('sandbox_phones.fail_clear', { phone: f.phone })}
                        onClick={() => fail.mutate({ phone: f.phone, code: null })}
                        data-testid="failing-clear"
                      >
                        ×
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
