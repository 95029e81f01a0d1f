import {
  MultiSelect,
  type MultiSelectProps,
  NativeSelect,
  type NativeSelectProps,
  NumberInput,
  type NumberInputProps,
  PasswordInput,
  type PasswordInputProps,
  Select,
  type SelectProps,
  SimpleGrid,
  Switch,
  type SwitchProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { type ComponentProps, createContext, type ReactNode, useContext } from 'react';

// Field wrappers over Mantine bound to a form by name: its value, its error (the schema's or the server's
// 422) and its test id, so a screen lists its fields and nothing else. The form comes from the nearest
// BoundForm (or FormShell, FormCard given `form`), or from the field's own `form` prop.

// biome-ignore lint/suspicious/noExplicitAny: a field only needs getInputProps of any form's values
export type AnyForm = UseFormReturnType<any>;
type Bound = { form?: AnyForm; name: string; testId?: string };

const FormContext = createContext<AnyForm | null>(null);

/** Hands `form` to the fields inside it (no <form> element of its own). */
export function FormProvider({ form, children }: { form: AnyForm | undefined; children: ReactNode }) {
  return <FormContext value={form ?? null}>{children}</FormContext>;
}

/** A <form> (noValidate: the schema checks it) whose fields are bound to `form`. */
export function BoundForm({ form, children, ...rest }: { form: AnyForm } & ComponentProps<'form'>) {
  return (
    <FormProvider form={form}>
      <form noValidate {...rest}>
        {children}
      </form>
    </FormProvider>
  );
}

/** The field's own form, or the one around it. */
function useBound(form: AnyForm | undefined, name: string, type?: 'checkbox') {
  const around = useContext(FormContext);
  const bound = form ?? around;
  if (!bound) throw new Error(`The field ${name} is outside a form`);
  return bound.getInputProps(name, type ? { type } : undefined);
}

export function TextField({ form, name, testId, ...rest }: Bound & Omit<TextInputProps, 'form'>) {
  return <TextInput data-testid={testId} {...rest} {...useBound(form, name)} />;
}

/** Grows with its text from `minRows` (2 unless given) up. */
export function TextareaField({ form, name, testId, ...rest }: Bound & Omit<TextareaProps, 'form'>) {
  return <Textarea autosize minRows={2} data-testid={testId} {...rest} {...useBound(form, name)} />;
}

export function PasswordField({ form, name, testId, ...rest }: Bound & Omit<PasswordInputProps, 'form'>) {
  return (
    <PasswordInput autoComplete="new-password" data-testid={testId} {...rest} {...useBound(form, name)} />
  );
}

export function SelectField({ form, name, testId, ...rest }: Bound & Omit<SelectProps, 'form'>) {
  return <Select data-testid={testId} {...rest} {...useBound(form, name)} />;
}

export function NativeSelectField({ form, name, testId, ...rest }: Bound & Omit<NativeSelectProps, 'form'>) {
  return <NativeSelect data-testid={testId} {...rest} {...useBound(form, name)} />;
}

export function MultiSelectField({ form, name, testId, ...rest }: Bound & Omit<MultiSelectProps, 'form'>) {
  return <MultiSelect data-testid={testId} {...rest} {...useBound(form, name)} />;
}

export function NumberField({ form, name, testId, ...rest }: Bound & Omit<NumberInputProps, 'form'>) {
  return <NumberInput data-testid={testId} {...rest} {...useBound(form, name)} />;
}

/** An amount of money in dollars with cents (the contract carries it as price_cents). */
export function PriceField(props: Bound & Omit<NumberInputProps, 'form'>) {
  return (
    <NumberField prefix="$" min={0} decimalScale={2} fixedDecimalScale thousandSeparator="," {...props} />
  );
}

export function SwitchField({ form, name, testId, ...rest }: Bound & Omit<SwitchProps, 'form'>) {
  return <Switch data-testid={testId} {...rest} {...useBound(form, name, 'checkbox')} />;
}

/** A new password and its confirmation side by side (both required). */
export function PasswordPair(props: {
  form: AnyForm;
  labels: { password: string; confirmation: string };
  testIds: { password: string; confirmation: string };
  disabled?: boolean;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <PasswordField
        form={props.form}
        name="password"
        label={props.labels.password}
        required
        disabled={props.disabled}
        testId={props.testIds.password}
      />
      <PasswordField
        form={props.form}
        name="password_confirmation"
        label={props.labels.confirmation}
        required
        disabled={props.disabled}
        testId={props.testIds.confirmation}
      />
    </SimpleGrid>
  );
}

/** A person's first name (required) and last name side by side, as every account form asks them. */
export function NameFields(props: {
  form: AnyForm;
  /** The two field names; `first_name` and `last_name` unless given. */
  names?: [first: string, last: string];
  labels: [first: string, last: string];
  testIds: [first: string, last: string];
  /** The signed-in user's own name: let the browser fill it in. */
  own?: boolean;
}) {
  const [first, last] = props.names ?? ['first_name', 'last_name'];
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <TextField
        form={props.form}
        name={first}
        label={props.labels[0]}
        autoComplete={props.own ? 'given-name' : undefined}
        required
        testId={props.testIds[0]}
      />
      <TextField
        form={props.form}
        name={last}
        label={props.labels[1]}
        autoComplete={props.own ? 'family-name' : undefined}
        testId={props.testIds[1]}
      />
    </SimpleGrid>
  );
}
