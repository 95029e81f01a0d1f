import { Text } from '@mantine/core';
import { ZAgencySettingsRequest } from '@stn/contracts/agencies';
import { z } from '@stn/contracts/zod';
import { useTranslation } from 'react-i18next';
import { TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormCard, FormSection } from '../../components/form/form-section.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { Loading } from '../../components/load-state.tsx';
import { useSite } from '../../lib/site.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { useSaveMarketingSite } from './api/marketing-site.ts';

// The main agency's marketing site (issue 23, ADR 077): '/' on the main domain goes there when it is set.
// Admins sign in on the main domain, whose site data names the main agency and its current address.

type Values = { marketingUrl: string; custom_script: string };
const resolve = zodResolver(
  z.object({
    marketingUrl: ZAgencySettingsRequest.shape.marketingUrl,
    custom_script: ZAgencySettingsRequest.shape.custom_script,
  }),
);

export function MarketingSiteCard() {
  const { t } = useTranslation();
  const site = useSite();
  if (site.isPending) return <Loading />;
  const data = site.data;
  if (!data?.isMainAgency || data.agency_id === null)
    return (
      <FormSection title={t('admin.marketing_site.title')} testId="marketing-site">
        <Text size="sm" c="dimmed" data-testid="marketing-site-elsewhere">
          {t('admin.marketing_site.main_domain_only')}
        </Text>
      </FormSection>
    );
  return (
    <MarketingSiteForm
      agencyId={data.agency_id}
      initial={{ marketingUrl: data.marketingUrl ?? '', custom_script: data.custom_script ?? '' }}
    />
  );
}

function MarketingSiteForm({ agencyId, initial }: { agencyId: number; initial: Values }) {
  const { t } = useTranslation();
  const save = useSaveMarketingSite(agencyId);
  const { form, submit, submitting } = useApiForm<Values>({
    initialValues: initial,
    validate: resolve,
    fields: ['marketingUrl', 'custom_script'],
    onSubmit: (v) =>
      save.mutateAsync({
        marketingUrl: v.marketingUrl.trim() || null,
        custom_script: v.custom_script.trim() ? v.custom_script : null,
      }),
  });
  return (
    <FormCard
      form={form}
      onSubmit={submit}
      title={t('admin.marketing_site.title')}
      hint={t('admin.marketing_site.hint')}
      submitting={submitting}
      submitTestId="marketing-site-save"
      testId="marketing-site"
    >
      <TextField
        name="marketingUrl"
        label={t('admin.marketing_site.address')}
        placeholder="https://www.example.com"
        testId="marketing-site-url"
      />
      <TextareaField
        name="custom_script"
        label={t('admin.marketing_site.order_script')}
        description={t('admin.marketing_site.order_script_hint')}
        minRows={4}
        maxRows={16}
        styles={{ input: { fontFamily: 'monospace' } }}
        spellCheck={false}
        testId="marketing-site-script"
      />
    </FormCard>
  );
}
