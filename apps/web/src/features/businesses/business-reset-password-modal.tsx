import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TBusiness, ZBusinessResetPasswordRequest } from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useImpersonationLock } from '../../components/credentials.tsx';
import { BoundForm, PasswordField } from '../../components/form/fields.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useResetBusinessPassword } from './api/businesses.ts';

type Values = { password: string; password_confirmation: string };

/** Empty fields mean "e-mail a reset link"; a typed password is set at once. */
const requestOf = (v: Values) =>
  v.password ? { password: v.password, password_confirmation: v.password_confirmation } : {};
const resolve = zodResolver(ZBusinessResetPasswordRequest);

/** Reset the business admin's password (POST /v1/business/{id}/reset-password). */
export function ResetPasswordModal({
  business,
  onClose,
}: {
  business: TBusiness | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const reset = useResetBusinessPassword();
  // Neither a new password nor a reset link while acting as another user (ADR 050).
  const lock = useImpersonationLock();
  const form = useForm<Values>({
    initialValues: { password: '', password_confirmation: '' },
    validate: (v) => resolve(requestOf(v)),
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((values) => {
    if (!business) return;
    reset.mutate(
      { id: business.id, body: requestOf(values) },
      {
        onSuccess: close,
        onError: (err) => applyServerErrors(form, err, ['password', 'password_confirmation']),
      },
    );
  });
  return (
    <Modal
      opened={business !== null}
      onClose={close}
      title={t('agency.business.reset_password.title', { name: business?.name ?? '' })}
      centered
    >
      <BoundForm form={form} onSubmit={submit}>
        <Stack>
          <Text size="sm" c="dimmed">
            {t('agency.business.reset_password.hint')}
          </Text>
          {lock && (
            <Alert color="gray" data-testid="business-reset-password-locked">
              {lock}
            </Alert>
          )}
          <PasswordField
            name="password"
            label={t('agency.business.reset_password.password')}
            disabled={lock !== null}
            testId="business-reset-password-password"
          />
          <PasswordField
            name="password_confirmation"
            label={t('agency.business.reset_password.confirmation')}
            disabled={lock !== null}
            testId="business-reset-password-confirmation"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              disabled={lock !== null}
              loading={reset.isPending}
              data-testid="business-reset-password-submit"
            >
              {form.values.password
                ? t('agency.business.reset_password.set')
                : t('agency.business.reset_password.send_link')}
            </Button>
          </Group>
        </Stack>
      </BoundForm>
    </Modal>
  );
}
