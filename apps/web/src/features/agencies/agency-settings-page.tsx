import { SimpleGrid, Stack, Switch, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TAgency, ZAgencySettingsRequest } from '@stn/contracts/agencies';
import { z } from '@stn/contracts/zod';
import { useTranslation } from 'react-i18next';
import { BoundForm, SwitchField, TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { RouteTabs } from '../../components/route-tabs.tsx';
import { useRouteName } from '../../lib/use-route-name.ts';
import { zPhone } from '../../lib/validation-messages.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { AgencyPaymentsPanel } from './agency-payments-panel.tsx';
import { SiteFields } from './agency-settings-panel.tsx';
import { useUpdateAgencySettings } from './api/agency-settings.ts';
import { objectOf, textOf, WithOwnAgency } from './own-agency.tsx';

/** The settings tabs, each a route. */
const SETTINGS_TABS = { information: 'agency.settings', notification: 'agency.settings.notification' };

/** The agency's settings: information (with its card payment keys) and notification tabs (spec 000 §2). */
export default function SettingsPage() {
  const { t } = useTranslation();
  const section = useRouteName() === 'agency.settings.notification' ? 'notification' : 'information';
  return (
    <Stack maw={860}>
      <Title order={2} data-testid="page-title">
        {t('menu.settings')}
      </Title>
      <RouteTabs value={section} routes={SETTINGS_TABS} testId="settings-tab" labels="agency.settings" />
      <WithOwnAgency>
        {(agency) =>
          section === 'notification' ? (
            <NotificationForm key={agency.id} agency={agency} />
          ) : (
            <>
              <InformationForm key={agency.id} agency={agency} />
              {/* The main agency's buyers pay the platform's own Stripe account (ADR 076). */}
              {!agency.is_main && <AgencyPaymentsPanel key={`stripe-${agency.id}`} agency={agency} />}
            </>
          )
        }
      </WithOwnAgency>
    </Stack>
  );
}

type InfoValues = {
  title: string;
  supportEmail: string;
  address: string;
  landingPage: boolean;
  properties: { whiteLabel: { companyName: string; address: string; phone: string } };
};

const INFO_FIELDS = [
  'title',
  'supportEmail',
  'address',
  'landingPage',
  'properties.whiteLabel.companyName',
  'properties.whiteLabel.address',
  'properties.whiteLabel.phone',
];

const phone = zPhone({ optional: true });
const ZInformation = ZAgencySettingsRequest.superRefine((v, ctx) => {
  const value = v.properties?.whiteLabel?.phone ?? '';
  const r = phone.safeParse(value);
  if (!r.success)
    ctx.addIssue({
      code: 'custom',
      path: ['properties', 'whiteLabel', 'phone'],
      message: r.error.issues[0]?.message,
    });
});
const resolveInfo = zodResolver(ZInformation);

function InformationForm({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const save = useUpdateAgencySettings();
  const wl = objectOf(agency.properties.whiteLabel);
  const form = useForm<InfoValues>({
    initialValues: {
      title: agency.branding.title ?? '',
      supportEmail: agency.branding.supportEmail ?? '',
      address: agency.branding.address ?? '',
      landingPage: agency.branding.landingPage ?? false,
      properties: {
        whiteLabel: {
          companyName: textOf(wl.companyName),
          address: textOf(wl.address),
          phone: textOf(wl.phone),
        },
      },
    },
    validate: resolveInfo,
  });
  const submit = form.onSubmit((v) =>
    save.mutate(v, { onError: (err) => applyServerErrors(form, err, INFO_FIELDS) }),
  );
  return (
    <BoundForm form={form} onSubmit={submit}>
      <Stack>
        <FormSection title={t('agency.settings.site')}>
          <SiteFields keys="agency.settings" titleKey="title" />
          <SwitchField
            name="landingPage"
            label={t('agency.settings.landing_page')}
            testId="agency-settings-landing-page"
          />
        </FormSection>
        <FormSection title={t('agency.settings.white_label')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField
              name="properties.whiteLabel.companyName"
              label={t('agency.settings.company_name')}
              testId="agency-settings-company-name"
            />
            <PhoneField
              label={t('agency.settings.company_phone')}
              data-testid="agency-settings-company-phone"
              {...form.getInputProps('properties.whiteLabel.phone')}
              value={form.values.properties.whiteLabel.phone}
            />
          </SimpleGrid>
          <TextareaField
            name="properties.whiteLabel.address"
            label={t('agency.settings.company_address')}
            testId="agency-settings-company-address"
          />
        </FormSection>
        <FormActions submitting={save.isPending} submitTestId="agency-settings-save" />
      </Stack>
    </BoundForm>
  );
}

const SWITCHES = ['new_business', 'business_limit', 'new_subscription', 'subscription_cancelled'] as const;
type NotificationValues = Record<(typeof SWITCHES)[number], boolean> & { email: string };

const ZNotification = z.object({
  email: z.union([z.literal(''), z.string().trim().pipe(z.email())]),
});
const resolveNotification = zodResolver(ZNotification);

function NotificationForm({ agency }: { agency: TAgency }) {
  const { t } = useTranslation();
  const save = useUpdateAgencySettings();
  const current = objectOf(agency.settings.notification);
  const form = useForm<NotificationValues>({
    initialValues: {
      ...(Object.fromEntries(SWITCHES.map((s) => [s, current[s] === true])) as Record<
        (typeof SWITCHES)[number],
        boolean
      >),
      email: textOf(current.email),
    },
    validate: resolveNotification,
  });
  const submit = form.onSubmit((notification) =>
    save.mutate(
      { notification },
      {
        // The server names these fields notification.<key>.
        onError: (err) =>
          applyServerErrors(
            {
              setFieldError: (path, message) =>
                form.setFieldError(path.replace(/^notification\./, ''), message),
            },
            err,
          ),
      },
    ),
  );
  return (
    <BoundForm form={form} onSubmit={submit}>
      <Stack>
        <FormSection title={t('agency.settings.notification_title')}>
          {SWITCHES.map((s) => (
            <Switch
              key={s}
              label={t(`agency.settings.notifications.${s}`)}
              data-testid={`agency-notification-${s}`}
              {...form.getInputProps(s, { type: 'checkbox' })}
            />
          ))}
          <TextField
            name="email"
            label={t('agency.settings.notifications.email')}
            description={t('agency.settings.notifications.email_hint')}
            type="email"
            testId="agency-notification-email"
          />
        </FormSection>
        <FormActions submitting={save.isPending} submitTestId="agency-notification-save" />
      </Stack>
    </BoundForm>
  );
}
