import { Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { COUNTRY_CODES, ZInternationalRequest } from '@stn/contracts/agencies';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { MultiSelectField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { Loading } from '../../components/load-state.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useInternationals, useSetInternationals } from './api/agency-settings.ts';

/** Country names in the interface language ('br' is Brazilian Portuguese). */
function useCountryOptions() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const locale = i18n.language === 'br' ? 'pt-BR' : i18n.language;
    let names: Intl.DisplayNames | null = null;
    try {
      names = new Intl.DisplayNames([locale], { type: 'region' });
    } catch {
      names = null;
    }
    return COUNTRY_CODES.map((code) => ({ value: code, label: `${names?.of(code) ?? code} (${code})` })).sort(
      (a, b) => a.label.localeCompare(b.label, locale),
    );
  }, [i18n.language]);
}

/** The countries the agency's businesses may text and call (GET and POST /v1/internationals). */
export default function InternationalPage() {
  const { t } = useTranslation();
  const countries = useInternationals();
  return (
    <Stack maw={760}>
      <Title order={2} data-testid="page-title">
        {t('menu.international')}
      </Title>
      {countries.data ? (
        <CountriesForm initial={countries.data} />
      ) : countries.isError ? (
        <Text c="red">{t('agency.common.load_failed')}</Text>
      ) : (
        <Loading />
      )}
    </Stack>
  );
}

function CountriesForm({ initial }: { initial: string[] }) {
  const { t } = useTranslation();
  const options = useCountryOptions();
  const save = useSetInternationals();
  const form = useForm<{ countries: string[] }>({
    initialValues: { countries: initial },
    validate: zodResolver(ZInternationalRequest),
  });
  const submit = form.onSubmit((v) =>
    save.mutate(v.countries, { onError: (err) => applyServerErrors(form, err, ['countries']) }),
  );
  const chosen = form.values.countries.length;
  return (
    <FormCard
      form={form}
      onSubmit={submit}
      hint={t('agency.international.hint')}
      submitting={save.isPending}
      submitTestId="agency-international-save"
    >
      <MultiSelectField
        name="countries"
        label={t('agency.international.countries')}
        description={t('agency.international.chosen', { count: chosen, total: options.length })}
        data={options}
        searchable
        clearable
        hidePickedOptions
        testId="agency-international-countries"
      />
    </FormCard>
  );
}
