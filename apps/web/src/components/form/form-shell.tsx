import { Paper, Stack, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';

/** A form screen: its title, its fields on a card (more cards in `extra`), then its button bar. */
export function FormShell(props: {
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  width?: number;
  children: ReactNode;
  extra?: ReactNode;
  actions: ReactNode;
}) {
  return (
    <form onSubmit={props.onSubmit} noValidate>
      <Stack maw={props.width ?? 760}>
        <Title order={2} data-testid="page-title">
          {props.title}
        </Title>
        <Paper withBorder p="lg" radius="md">
          <Stack>{props.children}</Stack>
        </Paper>
        {props.extra}
        {props.actions}
      </Stack>
    </form>
  );
}
