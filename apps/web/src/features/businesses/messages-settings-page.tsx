import { Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  AWAY_EVERY_HOURS_MAX,
  AWAY_MESSAGE_MAX,
  messagesSettingsOf,
  SIGNATURE_MAX,
  type TBusiness,
  type TBusinessMessagesSettings,
  ZBusinessMessagesSettings,
} from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { NumberField, SwitchField, TextareaField, TextField } from '../../components/form/fields.tsx';
import { FormCard } from '../../components/form/form-section.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import { AdminSettingPage } from './admin-setting-page.tsx';
import { useUpdateBusinessSetting } from './api/business-settings.ts';

type Values = Omit<TBusinessMessagesSettings, 'opt_out_msg'> & { opt_out_msg: string };
const FIELDS = [
  'opt_out_msg',
  'signature_enabled',
  'signature',
  'away_enabled',
  'away_message',
  'away_every_hours',
] as const;

const request = (v: Values): TBusinessMessagesSettings => ({
  ...v,
  opt_out_msg: v.opt_out_msg.trim() || null,
});
const resolve = zodResolver<TBusinessMessagesSettings>(ZBusinessMessagesSettings);

/**
 * The messages settings (PUT /v1/businesses/setting `messages`; ADR 094): the opt-out message (the STOP
 * reply, the same field as the information form's), the inbox signature and the away auto-reply.
 */
function MessagesForm({ business }: { business: TBusiness | null | undefined }) {
  const { t } = useTranslation();
  const save = useUpdateBusinessSetting();
  const form = useForm<Values>({
    initialValues: { ...messagesSettingsOf(business?.settings), opt_out_msg: business?.opt_out_msg ?? '' },
    validate: (v) => resolve(request(v)),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await save.mutateAsync({ messages: request(values) });
      form.resetDirty();
    } catch (err) {
      if (!(err instanceof ApiError)) return;
      for (const k of FIELDS) {
        const m = err.field(`messages.${k}`);
        if (m) form.setFieldError(k, m);
      }
    }
  });
  const k = (key: string) => t(`business.setting.messages_settings.${key}`);
  return (
    <FormCard
      form={form}
      onSubmit={submit}
      title={k('title')}
      hint={k('hint')}
      submitting={save.isPending}
      submitTestId="messages-settings-save"
    >
      <TextareaField
        name="opt_out_msg"
        label={t('business.setting.opt_out_msg')}
        description={k('opt_out_hint')}
        autosize
        minRows={2}
        maxLength={500}
        testId="messages-opt-out"
      />
      <SwitchField
        name="signature_enabled"
        label={k('signature_enabled')}
        description={k('signature_hint')}
        testId="messages-signature-enabled"
      />
      <TextField
        name="signature"
        label={k('signature')}
        placeholder={k('signature_placeholder')}
        maxLength={SIGNATURE_MAX}
        disabled={!form.values.signature_enabled}
        testId="messages-signature"
      />
      <SwitchField
        name="away_enabled"
        label={k('away_enabled')}
        description={k('away_hint')}
        testId="messages-away-enabled"
      />
      <TextareaField
        name="away_message"
        label={k('away_message')}
        placeholder={k('away_placeholder')}
        autosize
        minRows={2}
        maxLength={AWAY_MESSAGE_MAX}
        disabled={!form.values.away_enabled}
        testId="messages-away-message"
      />
      <NumberField
        name="away_every_hours"
        label={k('away_every_hours')}
        description={k('away_every_hint')}
        min={1}
        max={AWAY_EVERY_HOURS_MAX}
        allowDecimal={false}
        disabled={!form.values.away_enabled}
        testId="messages-away-hours"
      />
      <Text size="xs" c="dimmed">
        {k('keywords_note')}
      </Text>
    </FormCard>
  );
}

/** business.setting.messages: the opt-out message, the inbox signature and the away reply (ADR 094). */
export default function MessagesSettingsPage() {
  return <AdminSettingPage title="business.setting.messages_settings.title" Section={MessagesForm} />;
}
