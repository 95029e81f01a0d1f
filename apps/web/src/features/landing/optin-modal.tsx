import { Alert, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { TOptinUserRequest } from '@stn/contracts/optins';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api-client.ts';

// The opt-in demo modal (spec 000 §2, §4 idle → submitting → submitted, §5: every field required, no
// format checks; §8 texts). POST /v1/agencies/optin-users with the page's host as domain.

const FIELDS = ['email', 'full_name', 'business_name', 'phone'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;
const EMPTY: Values = { email: '', full_name: '', business_name: '', phone: '' };

type State = 'idle' | 'submitting' | 'success' | 'failure';

/** The fields left empty (spec §5: nothing is sent while one is). */
export function emptyFields(values: Values): Field[] {
  return FIELDS.filter((f) => values[f].trim() === '');
}

export function OptinModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Field[]>([]);
  const [state, setState] = useState<State>('idle');

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const empty = emptyFields(values);
    setErrors(empty);
    if (empty.length) {
      console.warn('opt-in: required fields are empty', empty);
      return;
    }
    setState('submitting');
    const body: TOptinUserRequest = { ...values, domain: window.location.host };
    try {
      await api('/v1/agencies/optin-users', { method: 'POST', body, silent: true });
      setState('success');
      setValues(EMPTY);
    } catch {
      setState('failure');
    }
  };

  const close = () => {
    onClose();
    if (state !== 'submitting') setState('idle');
    setErrors([]);
  };

  return (
    <Modal opened={opened} onClose={close} title={t('landing.optin.title')} data-testid="optin-modal">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('landing.optin.trusted')}
          </Text>
          {FIELDS.map((f) => (
            <TextInput
              key={f}
              label={t(`landing.optin.${f}`)}
              type={f === 'email' ? 'email' : f === 'phone' ? 'tel' : 'text'}
              value={values[f]}
              onChange={(ev) => {
                const value = ev.currentTarget.value;
                setValues((v) => ({ ...v, [f]: value }));
                setErrors((list) => list.filter((x) => x !== f));
              }}
              error={errors.includes(f) ? t('landing.optin.required') : undefined}
              withAsterisk
              data-testid={`optin-${f}`}
            />
          ))}
          {state === 'success' && (
            <Alert color="green" data-testid="optin-success">
              {t('optins.submitted')}
            </Alert>
          )}
          {state === 'failure' && (
            <Alert color="red" data-testid="optin-failure">
              {t('optins.failed')}
            </Alert>
          )}
          <Button type="submit" disabled={state === 'submitting'} data-testid="optin-submit">
            {state === 'submitting' ? t('landing.optin.submitting') : t('landing.request_demo_today')}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}
