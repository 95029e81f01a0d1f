import { Paper, Stack, Text, Title } from '@mantine/core';
import type { FormEventHandler, ReactNode } from 'react';
import { type AnyForm, FormProvider } from './fields.tsx';
import { FormActions } from './form-actions.tsx';

/** A section's heading: its title, or its hint, or the title with the hint under it. */
function Heading({ title, hint }: { title?: ReactNode; hint?: ReactNode }) {
  const hintText = hint ? (
    <Text size="sm" c="dimmed">
      {hint}
    </Text>
  ) : null;
  if (!title) return hintText;
  if (!hintText) return <Title order={4}>{title}</Title>;
  return (
    <div>
      <Title order={4}>{title}</Title>
      {hintText}
    </div>
  );
}

/** A card of a form or settings screen: its heading (title, hint, both or none), then its fields. */
export function FormSection(props: {
  title?: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
  testId?: string;
  maw?: number;
}) {
  return (
    <Paper withBorder p="lg" radius="md" maw={props.maw} data-testid={props.testId}>
      <Stack>
        <Heading title={props.title} hint={props.hint} />
        {props.children}
      </Stack>
    </Paper>
  );
}

/** A form that is one card: the section, its fields, then the save bar. */
export function FormCard(props: {
  onSubmit: FormEventHandler<HTMLFormElement>;
  /** The form its fields are bound to (a field may name its own instead). */
  form?: AnyForm;
  title?: ReactNode;
  hint?: ReactNode;
  maw?: number;
  testId?: string;
  submitting: boolean;
  submitTestId: string;
  children: ReactNode;
}) {
  return (
    <FormProvider form={props.form}>
      <form onSubmit={props.onSubmit} noValidate>
        <FormSection title={props.title} hint={props.hint} maw={props.maw} testId={props.testId}>
          {props.children}
          <FormActions submitting={props.submitting} submitTestId={props.submitTestId} />
        </FormSection>
      </form>
    </FormProvider>
  );
}
