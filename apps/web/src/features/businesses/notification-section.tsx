import { SimpleGrid, Switch, TagsInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type TBusiness,
  ZBusinessNotificationSettings,
  ZBusinessSettingRequest,
} from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { PhoneField } from '../../components/phone-field.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { i18next } from '../../lib/i18n.ts';
import { zPhone } from '../../lib/validation-messages.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { useUpdateBusinessSetting } from './api/business-settings.ts';

const SWITCHES = [
  'email_notifications',
  'sms_notifications',
  'desktop_notifications',
  'new_message',
  'new_task',
  'missed_call',
  'new_lead',
] as const;
type SwitchKey = (typeof SWITCHES)[number];

type NotificationValues = Record<SwitchKey, boolean> & {
  notification_emails: string[];
  notification_phone: string;
};

function valuesOf(business: TBusiness | null | undefined): NotificationValues {
  const parsed = ZBusinessNotificationSettings.safeParse(business?.settings.notifications ?? {});
  const n = parsed.success ? parsed.data : {};
  return {
    ...(Object.fromEntries(SWITCHES.map((k) => [k, n[k] ?? false])) as Record<SwitchKey, boolean>),
    notification_emails: n.notification_emails ?? [],
    notification_phone: n.notification_phone ?? '',
  };
}

const requestOf = (v: NotificationValues) => ({
  notifications: { ...v, notification_phone: v.notification_phone.trim() || null },
});

const resolve = zodResolver(ZBusinessSettingRequest);
const phoneRule = zPhone({ optional: true });
function validate(v: NotificationValues): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [k, m] of Object.entries(resolve(requestOf(v)))) errors[k.replace(/^notifications\./, '')] = m;
  const phone = phoneRule.safeParse(v.notification_phone);
  if (!phone.success && !errors.notification_phone) errors.notification_phone = i18next.t('validation.phone');
  return errors;
}

/** Notification settings of the business (PUT /v1/businesses/setting); also the setting.notification screen. */
export function NotificationSection({ business }: { business: TBusiness | null | undefined }) {
  const { t } = useTranslation();
  const save = useUpdateBusinessSetting();
  const form = useForm<NotificationValues>({ initialValues: valuesOf(business), validate });
  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync(requestOf(values));
      form.resetDirty();
    } catch (err) {
      // The server names the fields 'notifications.x'; the form has them at the top.
      if (!(err instanceof ApiError)) return;
      for (const k of [...SWITCHES, 'notification_emails', 'notification_phone'] as const) {
        const m = err.field(`notifications.${k}`) ?? err.field(k);
        if (m) form.setFieldError(k, m);
      }
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <FormSection
        title={t('business.setting.notifications')}
        hint={t('business.setting.notifications_hint')}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {SWITCHES.map((k) => (
            <Switch
              key={k}
              label={t(`business.setting.switches.${k}`)}
              data-testid={`setting-${k}`}
              {...form.getInputProps(k, { type: 'checkbox' })}
            />
          ))}
        </SimpleGrid>
        <TagsInput
          label={t('business.setting.notification_emails')}
          description={t('business.setting.emails_hint')}
          data-testid="setting-notification-emails"
          {...form.getInputProps('notification_emails')}
        />
        <PhoneField
          label={t('business.setting.notification_phone')}
          data-testid="setting-notification-phone"
          {...form.getInputProps('notification_phone')}
          value={form.values.notification_phone}
        />
        <FormActions submitting={save.isPending} submitTestId="setting-notifications-save" />
      </FormSection>
    </form>
  );
}
