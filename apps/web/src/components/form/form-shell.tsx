import { Anchor, Paper, Stack, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { Link } from 'react-router';
import { type AnyForm, FormProvider } from './fields.tsx';

/** A form screen: its title, its fields on a card (more cards in `extra`), then its button bar. */
export function FormShell(props: {
  title: string;
  /** The form its fields are bound to (a field may name its own instead). */
  form?: AnyForm;
  /** A link back to the list above the title. */
  back?: { label: string; to: string };
  onSubmit: FormEventHandler<HTMLFormElement>;
  width?: number;
  children: ReactNode;
  extra?: ReactNode;
  actions: ReactNode;
}) {
  return (
    <FormProvider form={props.form}>
      <form onSubmit={props.onSubmit} noValidate>
        <Stack maw={props.width ?? 760}>
          <div>
            {props.back && (
              <Anchor component={Link} to={props.back.to} size="sm">
                {props.back.label}
              </Anchor>
            )}
            <Title order={2} data-testid="page-title">
              {props.title}
            </Title>
          </div>
          <Paper withBorder p="lg" radius="md">
            <Stack>{props.children}</Stack>
          </Paper>
          {props.extra}
          {props.actions}
        </Stack>
      </form>
    </FormProvider>
  );
}
