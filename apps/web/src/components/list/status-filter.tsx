import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type ActiveFilter = 'all' | 'active' | 'inactive';

/** All, active or inactive rows of a list (the `status` filter of its list call). */
export function ActiveFilterControl(props: {
  value: ActiveFilter;
  onChange: (v: ActiveFilter) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      w="fit-content"
      value={props.value}
      onChange={(v) => props.onChange(v as ActiveFilter)}
      data={(['all', 'active', 'inactive'] as const).map((value) => ({
        value,
        label: t(`business.common.status.${value}`),
      }))}
      data-testid={props.testId}
    />
  );
}

/** The list call's `status` parameter for a filter value. */
export const statusParam = (v: ActiveFilter) => (v === 'all' ? undefined : v);
