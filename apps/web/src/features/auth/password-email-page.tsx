import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TPasswordEmailRequest, ZPasswordEmailRequest } from '@stn/contracts/auth';
import type { TSuccessMessage } from '@stn/contracts/http';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BoundForm, TextField } from '../../components/form/fields.tsx';
import { api } from '../../lib/api-client.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';

const validate = zodResolver<TPasswordEmailRequest>(ZPasswordEmailRequest);

/** Password reset request (spec 000 §2 /password/email; §7 POST /v1/password/email). */
export default function PasswordEmailPage() {
  const { t } = useTranslation();
  const [submitting, setSubmitting] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<TPasswordEmailRequest>({
    initialValues: { email: '' },
    validate,
  });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    try {
      const res = await api<TSuccessMessage>('/v1/password/email', {
        method: 'POST',
        body: { email: values.email.trim() },
      });
      setSent(res.message);
    } catch (err) {
      applyServerErrors(form, err, ['email']);
    } finally {
      setSubmitting(false);
    }
  });

  const back = (
    <Anchor component={Link} to="/login" size="sm" data-testid="password-email-back">
      {t('auth.back_to_login')}
    </Anchor>
  );

  if (sent !== null) {
    return (
      <Stack>
        <Title order={2}>{t('screens.password_email.sent_title')}</Title>
        <Alert color="green" data-testid="password-email-sent">
          {sent}
        </Alert>
        <Button variant="subtle" onClick={() => setSent(null)} data-testid="password-email-again">
          {t('screens.password_email.send_again')}
        </Button>
        {back}
      </Stack>
    );
  }

  return (
    <BoundForm form={form} onSubmit={submit}>
      <Stack>
        <Title order={2}>{t('auth.forgot_password')}</Title>
        <Text size="sm" c="dimmed">
          {t('screens.password_email.intro')}
        </Text>
        <TextField
          name="email"
          label={t('auth.email')}
          type="email"
          autoComplete="email"
          required
          autoFocus
          testId="password-email-email"
        />
        <Button type="submit" fullWidth loading={submitting} data-testid="password-email-submit">
          {t('auth.send_link')}
        </Button>
        {back}
      </Stack>
    </BoundForm>
  );
}
