import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type TSupportInstall,
  type TSupportWidgetSettings,
  ZSupportWidgetSettingsRequest,
} from '@stn/contracts/support';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BoundForm, SelectField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { type ApiForm, useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import {
  useSaveSupportWidget,
  useSupportInstallChoices,
  useSupportWidgetSettings,
} from './api/support-widget.ts';
import { MarketingSiteCard } from './marketing-site-form.tsx';

type Values = { agency: string | null; business: string | null };
const FIELDS = ['support_widget_agency_install_id', 'support_widget_business_install_id'] as const;
const resolve = zodResolver(ZSupportWidgetSettingsRequest);
const toId = (v: string | null) => (v ? Number(v) : null);
const requestOf = (v: Values) => ({
  support_widget_agency_install_id: toId(v.agency),
  support_widget_business_install_id: toId(v.business),
});

/**
 * The platform's settings (admin.settings): the support chat of spec 000 §2 Layout (issue 11) and the main
 * agency's marketing site (issue 23).
 */
export default function AdminSettingsPage() {
  const { t } = useTranslation();
  const settings = useSupportWidgetSettings();
  return (
    <Stack maw={860}>
      <Title order={2} data-testid="page-title">
        {t('menu.settings')}
      </Title>
      {settings.data ? (
        <SupportWidgetForm settings={settings.data} />
      ) : settings.isError ? (
        <LoadFailed
          message={settings.error instanceof ApiError ? settings.error.message : undefined}
          testId="support-widget-load-failed"
        />
      ) : (
        <Loading />
      )}
      <MarketingSiteCard />
    </Stack>
  );
}

function SupportWidgetForm({ settings }: { settings: TSupportWidgetSettings }) {
  const { t } = useTranslation();
  const save = useSaveSupportWidget();
  const { form, submit, submitting } = useApiForm<Values>({
    initialValues: {
      agency: settings.support_widget_agency_install_id?.toString() ?? null,
      business: settings.support_widget_business_install_id?.toString() ?? null,
    },
    validate: (v) => rename(resolve(requestOf(v))),
    fields: FIELDS,
    rename: FORM_FIELD,
    onSubmit: (v) => save.mutateAsync(requestOf(v)),
  });
  return (
    <BoundForm form={form} onSubmit={submit}>
      <Paper withBorder p="lg" radius="md" data-testid="support-widget-section">
        <Stack>
          <Title order={4}>{t('admin.support_widget.title')}</Title>
          <Text size="sm" c="dimmed">
            {t('admin.support_widget.hint')}
          </Text>
          <InstallPicker
            form={form}
            name="agency"
            label={t('admin.support_widget.agency_install')}
            picked={settings.agency_install}
            testId="support-widget-agency"
          />
          <InstallPicker
            form={form}
            name="business"
            label={t('admin.support_widget.business_install')}
            picked={settings.business_install}
            testId="support-widget-business"
          />
          <FormActions submitting={submitting} submitTestId="support-widget-save" />
        </Stack>
      </Paper>
    </BoundForm>
  );
}

const FORM_FIELD: Record<string, keyof Values> = {
  support_widget_agency_install_id: 'agency',
  support_widget_business_install_id: 'business',
};

/** The resolver's messages by the form's own field names. */
function rename(errors: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(errors).map(([field, m]) => [FORM_FIELD[field] ?? field, m]));
}

const labelOf = (i: TSupportInstall) => `${i.name} · ${i.business_name}${i.website ? ` (${i.website})` : ''}`;

/** A searchable pick among the main agency's businesses' installs (the server searches, 20 at a time). */
function InstallPicker(props: {
  form: ApiForm<Values>;
  name: keyof Values;
  label: string;
  picked: TSupportInstall | null;
  testId: string;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  // Every install seen so far is remembered, so that a pick keeps its label whatever is searched next.
  const seen = useRef(new Map<string, TSupportInstall>());
  if (props.picked) seen.current.set(String(props.picked.id), props.picked);
  const selected = props.form.values[props.name];
  const current = selected ? seen.current.get(selected) : undefined;
  // Typing searches the server; the selected option's own label showing in the box is not a search.
  const [keyword] = useDebouncedValue(current && search === labelOf(current) ? '' : search.trim(), 250);
  const choices = useSupportInstallChoices(keyword);
  for (const i of choices.data ?? []) seen.current.set(String(i.id), i);
  const shown = [...(choices.data ?? [])];
  if (current && !shown.some((i) => i.id === current.id)) shown.unshift(current);
  const data = shown.map((i) => ({ value: String(i.id), label: labelOf(i) }));
  return (
    <Stack gap={4}>
      <SelectField
        form={props.form}
        name={props.name}
        label={props.label}
        placeholder={t('admin.support_widget.placeholder')}
        data={data}
        searchable
        clearable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        nothingFoundMessage={t('admin.support_widget.search_none')}
        testId={props.testId}
      />
      {current && (current.status !== 'active' || !current.active) && (
        <Alert color="yellow" variant="light" p="xs" data-testid={`${props.testId}-not-loading`}>
          {t('admin.support_widget.not_loading', {
            status: t(`admin.support_widget.status.${current.status}`),
          })}
        </Alert>
      )}
    </Stack>
  );
}
