import { ActionIcon, Alert, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  A2P_BRAND_TYPES,
  A2P_COMPANY_TYPES,
  A2P_USE_CASES,
  type TCampaignRegistration,
  type TCarrierProfile,
  ZCampaignInput,
} from '@stn/contracts/registration';
import { useTranslation } from 'react-i18next';
import {
  FormProvider,
  SelectField,
  SwitchField,
  TextareaField,
  TextField,
} from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { i18next } from '../../lib/i18n.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { registerCampaign } from './api/registration.ts';
import { PROFILE_SUBMITTED, useOptions } from './registration-parts.tsx';
import { type CampaignValues, campaignRequestOf, campaignValuesOf } from './registration-values.ts';

// The A2P brand and campaign form of agency.sms-registration (ADR 092): which profile the brand stands on,
// the brand's contact and company type, and the campaign as the carriers review it (use case, description,
// 2–5 sample messages naming the business, how people opt in, the keywords and their answers). A failed
// registration opens it again filled in from what was sent ("Fix and resubmit").

const MIN_SAMPLES = 2;
const MAX_SAMPLES = 5;

const FIELDS = [
  'profile_id',
  'brand.email',
  'brand.company_type',
  'brand.brand_type',
  'brand.stock_exchange',
  'brand.stock_ticker',
  'campaign.use_case',
  'campaign.description',
  'campaign.sample_messages',
  ...Array.from({ length: MAX_SAMPLES }, (_, i) => `campaign.sample_messages.${i}`),
  'campaign.message_flow',
  'campaign.opt_in_keywords',
  'campaign.opt_in_message',
  'campaign.opt_out_keywords',
  'campaign.opt_out_message',
  'campaign.help_keywords',
  'campaign.help_message',
];
/** A keyword's own message (opt_out_keywords.0) shows at its list's field. */
const RENAME = Object.fromEntries(
  ['opt_in', 'opt_out', 'help'].flatMap((k) =>
    Array.from({ length: 10 }, (_, i) => [`campaign.${k}_keywords.${i}`, `campaign.${k}_keywords`]),
  ),
);

const resolve = zodResolver(ZCampaignInput);

export function CampaignForm(props: {
  profiles: TCarrierProfile[];
  /** The failed registration being fixed, or null for a first one. */
  registration: TCampaignRegistration | null;
  onDone: () => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const usable = props.profiles.filter((p) => PROFILE_SUBMITTED.includes(p.status));
  const legal = (id: string) => usable.find((p) => String(p.id) === id)?.business.legal_name ?? '';
  const firstId = String(
    props.registration?.profile_id ?? usable.find((p) => p.is_primary)?.id ?? usable[0]?.id ?? '',
  );
  const { form, submit, submitting } = useApiForm<CampaignValues>({
    initialValues: campaignValuesOf(props.registration, usable, (k) =>
      i18next.t(`registration.campaign_form.defaults.${k}`, { name: legal(firstId) }),
    ),
    validate: (v) => resolve(campaignRequestOf(v)),
    fields: FIELDS,
    rename: RENAME,
    onSubmit: (v) => registerCampaign(campaignRequestOf(v)),
    onSuccess: props.onDone,
  });
  const companyTypes = useOptions('company_types', A2P_COMPANY_TYPES);
  const brandTypes = useOptions('brand_types', A2P_BRAND_TYPES);
  const useCases = useOptions('use_cases', A2P_USE_CASES);
  const samples = form.values.campaign.sample_messages;
  const name = legal(form.values.profile_id);
  const samplesError = form.errors['campaign.sample_messages'];

  if (usable.length === 0)
    return (
      <Alert color="yellow" data-testid="campaign-no-profile">
        {t('registration.campaign_form.no_profile')}
      </Alert>
    );

  return (
    <FormProvider form={form}>
      <form onSubmit={submit} noValidate data-testid="campaign-form">
        <Stack maw={860}>
          <FormSection
            title={t('registration.campaign_form.brand')}
            hint={t('registration.campaign_form.brand_hint')}
            testId="campaign-section-brand"
          >
            <SelectField
              name="profile_id"
              label={t('registration.fields.profile')}
              data={usable.map((p) => ({
                value: String(p.id),
                label: `${p.friendly_name} (${p.business.legal_name})`,
              }))}
              allowDeselect={false}
              required
              testId="campaign-profile"
            />
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <TextField
                name="brand.email"
                label={t('registration.fields.brand_email')}
                required
                testId="campaign-brand-email"
              />
              <SelectField
                name="brand.company_type"
                label={t('registration.fields.company_type')}
                data={companyTypes}
                allowDeselect={false}
                required
                testId="campaign-company-type"
              />
              <SelectField
                name="brand.brand_type"
                label={t('registration.fields.brand_type')}
                data={brandTypes}
                allowDeselect={false}
                required
                testId="campaign-brand-type"
              />
            </SimpleGrid>
            {form.values.brand.company_type === 'public' && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextField
                  name="brand.stock_exchange"
                  label={t('registration.fields.stock_exchange')}
                  testId="campaign-stock-exchange"
                />
                <TextField
                  name="brand.stock_ticker"
                  label={t('registration.fields.stock_ticker')}
                  testId="campaign-stock-ticker"
                />
              </SimpleGrid>
            )}
          </FormSection>
          <FormSection
            title={t('registration.campaign_form.campaign')}
            hint={t('registration.campaign_form.campaign_hint')}
            testId="campaign-section-campaign"
          >
            <SelectField
              name="campaign.use_case"
              label={t('registration.fields.use_case')}
              data={useCases}
              allowDeselect={false}
              required
              testId="campaign-use-case"
            />
            <TextareaField
              name="campaign.description"
              label={t('registration.fields.description')}
              description={t('registration.campaign_form.description_hint')}
              required
              minRows={3}
              testId="campaign-description"
            />
            <Stack gap="xs" data-testid="campaign-samples">
              <div>
                <Text size="sm" fw={500}>
                  {t('registration.fields.sample_messages')}
                </Text>
                <Text size="xs" c="dimmed">
                  {name
                    ? t('registration.campaign_form.samples_hint_name', { name })
                    : t('registration.campaign_form.samples_hint')}
                </Text>
              </div>
              {samples.map((_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the samples are edited in place by position
                <Group key={i} align="flex-start" wrap="nowrap">
                  <TextareaField
                    name={`campaign.sample_messages.${i}`}
                    aria-label={t('registration.campaign_form.sample_n', { n: i + 1 })}
                    placeholder={t('registration.campaign_form.sample_placeholder', { name: name || '…' })}
                    style={{ flex: 1 }}
                    testId={`campaign-sample-${i}`}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    mt={6}
                    disabled={samples.length <= MIN_SAMPLES}
                    onClick={() => form.removeListItem('campaign.sample_messages', i)}
                    aria-label={t('registration.campaign_form.remove_sample', { n: i + 1 })}
                    data-testid={`campaign-sample-remove-${i}`}
                  >
                    ✕
                  </ActionIcon>
                </Group>
              ))}
              {samplesError && (
                <Text size="xs" c="red" data-testid="campaign-samples-error">
                  {samplesError}
                </Text>
              )}
              {samples.length < MAX_SAMPLES && (
                <Button
                  variant="subtle"
                  size="xs"
                  onClick={() => form.insertListItem('campaign.sample_messages', '')}
                  style={{ alignSelf: 'flex-start' }}
                  data-testid="campaign-sample-add"
                >
                  {t('registration.campaign_form.add_sample')}
                </Button>
              )}
            </Stack>
            <TextareaField
              name="campaign.message_flow"
              label={t('registration.fields.message_flow')}
              description={t('registration.campaign_form.flow_hint')}
              required
              minRows={3}
              testId="campaign-flow"
            />
            <Group>
              <SwitchField
                name="campaign.has_embedded_links"
                label={t('registration.fields.has_embedded_links')}
                testId="campaign-links"
              />
              <SwitchField
                name="campaign.has_embedded_phone"
                label={t('registration.fields.has_embedded_phone')}
                testId="campaign-phone"
              />
            </Group>
          </FormSection>
          <FormSection
            title={t('registration.campaign_form.keywords')}
            hint={t('registration.campaign_form.keywords_hint')}
            testId="campaign-section-keywords"
          >
            {(['opt_in', 'opt_out', 'help'] as const).map((k) => (
              <SimpleGrid key={k} cols={{ base: 1, sm: 3 }}>
                <TextField
                  name={`campaign.${k}_keywords`}
                  label={t(`registration.fields.${k}_keywords`)}
                  testId={`campaign-${k}-keywords`}
                />
                <TextareaField
                  name={`campaign.${k}_message`}
                  label={t(`registration.fields.${k}_message`)}
                  style={{ gridColumn: 'span 2' }}
                  testId={`campaign-${k}-message`}
                />
              </SimpleGrid>
            ))}
          </FormSection>
          <FormActions
            submitting={submitting}
            submitTestId="campaign-submit"
            submitLabel={
              props.registration
                ? t('registration.campaign_form.resubmit')
                : t('registration.campaign_form.submit')
            }
            {...(props.onCancel ? { onCancel: props.onCancel } : {})}
          />
        </Stack>
      </form>
    </FormProvider>
  );
}
