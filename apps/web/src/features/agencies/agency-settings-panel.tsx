import { useForm } from '@mantine/form';
import { type TAgency, ZAgencySettingsRequest } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useUpdateAgencySettings } from './api/agencies.ts';

type SettingsValues = { title: string; supportEmail: string; address: string };
const FIELDS = ['title', 'supportEmail', 'address'] as const;

const valuesOf = (a: TAgency): SettingsValues => ({
  title: a.branding.title ?? '',
  supportEmail: a.branding.supportEmail ?? '',
  address: a.branding.address ?? '',
});

const requestOf = (v: SettingsValues) => ({
  title: v.title,
  supportEmail: v.supportEmail.trim() ? v.supportEmail : null,
  address: v.address.trim() ? v.address : null,
});

const resolve = zodResolver(ZAgencySettingsRequest);

/** The agency's site title, support e-mail and address (PUT /v1/agencies/{id}/settings). */
export function AgencySettingsPanel({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const save = useUpdateAgencySettings(agency.id);
  const form = useForm<SettingsValues>({
    initialValues: valuesOf(agency),
    validate: (v) => resolve(requestOf(v)),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const res = await save.mutateAsync(requestOf(values));
      const saved = valuesOf(res.data);
      form.setValues(saved);
      form.resetDirty(saved);
    } catch (err) {
      applyServerErrors(form, err, FIELDS);
    }
  });

  return (
    <FormCard
      form={form}
      onSubmit={submit}
      maw={860}
      title={t('admin.agency_settings.title')}
      submitting={save.isPending}
      submitTestId="agency-settings-submit"
    >
      <SiteFields
        keys="admin.agency_settings"
        titleKey="site_title"
        titleHint={t('admin.agency_settings.site_title_hint')}
      />
    </FormCard>
  );
}

/**
 * An agency site's title, support e-mail and address: the admin's panel and the agency's own settings
 * show them. `keys` is the locale group of their labels, `titleKey` the title's label in it.
 */
export function SiteFields({
  keys,
  titleKey,
  titleHint,
}: {
  keys: string;
  titleKey: string;
  titleHint?: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        name="title"
        label={t(`${keys}.${titleKey}`)}
        description={titleHint}
        required
        testId="agency-settings-title"
      />
      <TextField
        name="supportEmail"
        label={t(`${keys}.support_email`)}
        type="email"
        testId="agency-settings-support-email"
      />
      <TextareaField name="address" label={t(`${keys}.address`)} testId="agency-settings-address" />
    </>
  );
}
