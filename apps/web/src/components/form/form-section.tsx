import { Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A card of a form or settings screen: its heading, an optional hint under it, then its fields. */
export function FormSection(props: {
  title: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Paper withBorder p="lg" radius="md" data-testid={props.testId}>
      <Stack>
        {props.hint ? (
          <div>
            <Title order={4}>{props.title}</Title>
            <Text size="sm" c="dimmed">
              {props.hint}
            </Text>
          </div>
        ) : (
          <Title order={4}>{props.title}</Title>
        )}
        {props.children}
      </Stack>
    </Paper>
  );
}
