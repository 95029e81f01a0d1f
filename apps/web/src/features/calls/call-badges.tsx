import { Badge, Select, Stack, Text } from '@mantine/core';
import { CALL_KINDS, CALL_OUTCOMES, type TCallKind, type TCallOutcome } from '@stn/contracts/telephony';
import { useTranslation } from 'react-i18next';
import { useInstallOptions } from './api/calls.ts';
import { outcomeColor } from './call-format.ts';

// Small pieces the calls screens share: the outcome and kind badges, the visitor cell and the install picker.

/** The visitor's phone and, under it, the name they gave. */
export function VisitorCell({ phone, name, testId }: { phone: string; name: string | null; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500} data-testid={testId}>
        {phone}
      </Text>
      {name && (
        <Text size="xs" c="dimmed">
          {name}
        </Text>
      )}
    </Stack>
  );
}

export function OutcomeBadge({ outcome, testId }: { outcome: TCallOutcome; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={outcomeColor(outcome)} variant="light" data-testid={testId}>
      {t(`business.calls.outcome.${outcome}`)}
    </Badge>
  );
}

export function KindBadge({ kind }: { kind: TCallKind }) {
  const { t } = useTranslation();
  return (
    <Badge color="gray" variant="outline">
      {t(`business.calls.kind.${kind}`)}
    </Badge>
  );
}

export const outcomeOptions = (t: (k: string) => string, only: readonly TCallOutcome[] = CALL_OUTCOMES) =>
  only.map((value) => ({ value, label: t(`business.calls.outcome.${value}`) }));

export const kindOptions = (t: (k: string) => string) =>
  CALL_KINDS.map((value) => ({ value, label: t(`business.calls.kind.${value}`) }));

/** A select of the business's active installs (value: the install id as a string). */
export function InstallSelect(props: {
  value: string | null;
  onChange: (value: string | null) => void;
  label: string;
  placeholder?: string;
  clearable?: boolean;
  required?: boolean;
  error?: string;
  testId: string;
  w?: number | string;
}) {
  const installs = useInstallOptions();
  return (
    <Select
      label={props.label}
      placeholder={props.placeholder}
      data={(installs.data ?? []).map((i) => ({ value: String(i.id), label: i.name }))}
      value={props.value}
      onChange={props.onChange}
      clearable={props.clearable}
      required={props.required}
      error={props.error}
      searchable
      disabled={installs.isPending}
      w={props.w}
      data-testid={props.testId}
    />
  );
}
