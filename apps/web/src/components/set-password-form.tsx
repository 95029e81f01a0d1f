import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { z } from '@stn/contracts/zod';
import type { ReactNode } from 'react';
import { applyServerErrors, zodResolver } from '../lib/zod-form.ts';
import { useImpersonationLock } from './credentials.tsx';
import { PasswordPair } from './form/fields.tsx';

type Values = { password: string; password_confirmation: string };
const EMPTY: Values = { password: '', password_confirmation: '' };

/**
 * Someone sets another user's password (an admin for an agency admin or a global user, an agency for its
 * users, a business manager for its users): a new password and its confirmation, checked with the
 * contract's schema ('Password confirmation does not match' at the field), emptied once saved. While
 * acting as another user nothing here may be used (ADR 050): the fields and buttons are disabled and say why.
 */
export function SetPasswordForm(props: {
  title: string;
  hint?: ReactNode;
  labels: { password: string; confirmation: string; submit: string };
  testIds: { password: string; confirmation: string; submit: string };
  schema: z.ZodType;
  onSave: (values: Values) => Promise<unknown>;
  pending: boolean;
  disabled?: boolean;
  /** Another action beside the submit button (a reset-link button), told whether it is locked. */
  extra?: (locked: boolean) => ReactNode;
}) {
  const lock = useImpersonationLock();
  const form = useForm<Values>({ initialValues: EMPTY, validate: zodResolver(props.schema) });
  const submit = form.onSubmit(async (values) => {
    try {
      await props.onSave(values);
      form.setValues(EMPTY);
      form.resetDirty(EMPTY);
    } catch (err) {
      applyServerErrors(form, err, ['password', 'password_confirmation']);
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <Paper withBorder p="lg" radius="md" maw={860}>
        <Stack>
          <div>
            <Title order={4}>{props.title}</Title>
            {props.hint && (
              <Text size="sm" c="dimmed">
                {props.hint}
              </Text>
            )}
          </div>
          {lock && (
            <Alert color="gray" data-testid="set-password-locked">
              {lock}
            </Alert>
          )}
          <PasswordPair
            form={form}
            labels={{ password: props.labels.password, confirmation: props.labels.confirmation }}
            testIds={{ password: props.testIds.password, confirmation: props.testIds.confirmation }}
            disabled={lock !== null}
          />
          <Group justify={props.extra ? 'space-between' : 'flex-end'}>
            {props.extra?.(lock !== null)}
            <Button
              type="submit"
              loading={props.pending}
              disabled={props.disabled || lock !== null}
              data-testid={props.testIds.submit}
            >
              {props.labels.submit}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </form>
  );
}
