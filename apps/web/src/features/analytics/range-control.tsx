import { Group, Paper, SegmentedControl, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import {
  PRESETS,
  type Preset,
  paramsWith,
  presetOf,
  presetRange,
  type Range,
  rangeFromParams,
} from './range.ts';

/** The range (and the ids of a filter) the address holds, and how to change them: each change is a new entry. */
export function useRangeParams(idsParam: string) {
  const [params, setParams] = useSearchParams();
  const { from, to, ids } = rangeFromParams(params, idsParam);
  const set = (next: { from?: string; to?: string; ids?: number[] }) =>
    setParams((current) => paramsWith(current, idsParam, next));
  return { range: { from, to }, ids, set };
}

/**
 * The range of days: four presets and two date inputs. `errors` are the server's messages for the dates
 * (a validation refusal), shown under them.
 */
export function RangeControl({
  range,
  onChange,
  errors,
  children,
}: {
  range: Range;
  onChange: (range: Range) => void;
  errors?: { from?: string; to?: string };
  /** More filters on the same line (the installs, the businesses). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const preset = presetOf(range);
  return (
    <Paper withBorder p="sm" radius="md" data-testid="range-control">
      <Group align="flex-start" wrap="wrap" gap="sm">
        <SegmentedControl
          mt={24}
          value={preset ?? ''}
          onChange={(v) => onChange(presetRange(v as Preset))}
          data={PRESETS.map((p) => ({ value: p, label: t(`dashboards.presets.${p}`) }))}
          data-testid="range-presets"
        />
        <TextInput
          type="date"
          label={t('dashboards.from')}
          value={range.from}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v) onChange({ ...range, from: v });
          }}
          error={errors?.from}
          data-testid="range-from"
        />
        <TextInput
          type="date"
          label={t('dashboards.to')}
          value={range.to}
          onChange={(e) => {
            const v = e.currentTarget.value;
            if (v) onChange({ ...range, to: v });
          }}
          error={errors?.to}
          data-testid="range-to"
        />
        {children}
      </Group>
    </Paper>
  );
}

/** The server's refusal: its messages for the dates (under the inputs), or one message for an Alert. */
export function refusalOf(error: unknown): { from?: string; to?: string; alert?: string } | null {
  if (!error) return null;
  if (error instanceof ApiError) {
    const from = error.field('from');
    const to = error.field('to');
    if (from || to) return { from, to };
    const first = error.body?.errors ? Object.values(error.body.errors)[0]?.[0] : undefined;
    return { alert: first ?? error.message };
  }
  return { alert: error instanceof Error ? error.message : String(error) };
}
