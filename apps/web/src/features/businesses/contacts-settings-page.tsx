import { Alert, Select } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  contactsSettingsOf,
  type TBusiness,
  type TBusinessContactsSettings,
  ZBusinessContactsSettings,
} from '@stn/contracts/businesses';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormCard } from '../../components/form/form-section.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { AdminSettingPage } from './admin-setting-page.tsx';
import { useUpdateBusinessSetting } from './api/business-settings.ts';

const validate = zodResolver<TBusinessContactsSettings>(ZBusinessContactsSettings);

/** Region names in the interface's language ('br' is the app's Brazilian Portuguese, not Breton). */
function useCountryOptions() {
  const { i18n } = useTranslation();
  return useMemo(() => {
    const lang = i18n.language === 'br' ? 'pt-BR' : i18n.language || 'en';
    const names = new Intl.DisplayNames([lang, 'en'], { type: 'region' });
    return getCountries()
      .map((c) => ({ value: c, label: `${names.of(c) ?? c} (+${getCountryCallingCode(c)})` }))
      .sort((a, b) => a.label.localeCompare(b.label, lang));
  }, [i18n.language]);
}

/** The contacts settings (PUT /v1/businesses/setting `contacts`; ADR 094): the default phone country. */
function ContactsForm({ business }: { business: TBusiness | null | undefined }) {
  const { t } = useTranslation();
  const save = useUpdateBusinessSetting();
  const countries = useCountryOptions();
  const form = useForm<TBusinessContactsSettings>({
    initialValues: contactsSettingsOf(business?.settings),
    validate,
  });
  const submit = form.onSubmit(async (contacts) => {
    try {
      await save.mutateAsync({ contacts });
      form.resetDirty();
    } catch (err) {
      // The server names the field inside its object: contacts.default_country.
      const m = err instanceof ApiError ? err.field('contacts.default_country') : undefined;
      if (m) form.setFieldError('default_country', m);
    }
  });
  return (
    <FormCard
      form={form}
      onSubmit={submit}
      title={t('business.setting.contacts_settings.country_title')}
      hint={t('business.setting.contacts_settings.country_hint')}
      submitting={save.isPending}
      submitTestId="contacts-settings-save"
    >
      <Select
        label={t('business.setting.contacts_settings.default_country')}
        data={countries}
        searchable
        allowDeselect={false}
        data-testid="contacts-default-country"
        {...form.getInputProps('default_country')}
      />
      <Alert color="blue">{t('business.setting.contacts_settings.duplicates')}</Alert>
    </FormCard>
  );
}

/** business.setting.contacts: how phone numbers of new contacts are read (ADR 094). */
export default function ContactsSettingsPage() {
  return <AdminSettingPage title="business.setting.contacts_settings.title" Section={ContactsForm} />;
}
