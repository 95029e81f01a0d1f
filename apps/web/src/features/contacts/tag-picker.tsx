import { MultiSelect, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useAllTags } from './api/contacts.ts';

/** Above this many chosen tags the picker shows 'n/total chosen' over the chips (spec 000 §9 multi-selects). */
export const SUMMARY_ABOVE = 2;

/** The business's tags as a searchable multi-select of tag ids (as strings). */
export function TagPicker(props: {
  value: string[];
  onChange: (value: string[]) => void;
  error?: string | null;
  label?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const tags = useAllTags();
  const data = (tags.data ?? []).map((tg) => ({ value: String(tg.id), label: tg.name }));
  return (
    <div>
      {props.value.length > SUMMARY_ABOVE && (
        <Text size="xs" c="dimmed" data-testid={`${props.testId}-summary`}>
          {t('contacts.chosen', { count: props.value.length, total: data.length })}
        </Text>
      )}
      <MultiSelect
        label={props.label ?? t('contacts.tags')}
        data={data}
        value={props.value}
        onChange={props.onChange}
        error={props.error ?? undefined}
        searchable
        clearable
        nothingFoundMessage={t('contacts.no_tags')}
        data-testid={props.testId}
      />
    </div>
  );
}
