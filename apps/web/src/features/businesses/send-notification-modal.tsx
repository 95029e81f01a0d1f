import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { ZSendNotificationRequest } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { BoundForm, TextareaField, TextField } from '../../components/form/fields.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useSendNotification } from './api/businesses.ts';

type Values = { subject: string; message: string };

/**
 * E-mail the admins of the selected businesses (POST /v1/agencies/send-notification); with none selected,
 * every business of the agency.
 */
export function SendNotificationModal(props: {
  opened: boolean;
  businessIds: number[];
  onClose: () => void;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const send = useSendNotification();
  const ids = props.businessIds.length > 0 ? props.businessIds : undefined;
  const form = useForm<Values>({
    initialValues: { subject: '', message: '' },
    validate: (v) => zodResolver(ZSendNotificationRequest)({ ...v, business_ids: ids }),
  });
  const submit = form.onSubmit((values) => {
    send.mutate(
      { ...values, business_ids: ids },
      {
        onSuccess: () => {
          form.reset();
          props.onSent();
          props.onClose();
        },
        onError: (err) => applyServerErrors(form, err, ['subject', 'message']),
      },
    );
  });
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={t('agency.business.notification.title')}
      size="lg"
    >
      <BoundForm form={form} onSubmit={submit}>
        <Stack>
          <Text size="sm" c="dimmed">
            {ids
              ? t('agency.business.notification.to_selected', { count: ids.length })
              : t('agency.business.notification.to_all')}
          </Text>
          <TextField
            name="subject"
            label={t('agency.business.notification.subject')}
            required
            testId="notification-subject"
          />
          <TextareaField
            name="message"
            label={t('agency.business.notification.message')}
            required
            minRows={5}
            testId="notification-message"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={send.isPending} data-testid="notification-submit">
              {t('agency.business.notification.send')}
            </Button>
          </Group>
        </Stack>
      </BoundForm>
    </Modal>
  );
}
