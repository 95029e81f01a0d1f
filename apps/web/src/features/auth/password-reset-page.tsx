import { Alert, Anchor, Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TLoginResponse, type TPasswordResetRequest, ZPasswordResetRequest } from '@stn/contracts/auth';
import type { TSuccessMessage } from '@stn/contracts/http';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PasswordField } from '../../components/form/fields.tsx';
import { ApiError, api } from '../../lib/api-client.ts';
import { auth } from '../../lib/auth-store.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { apiErrorText } from './api-error-text.ts';
import { usePostOnce } from './use-post-once.ts';

type FormValues = Pick<TPasswordResetRequest, 'password' | 'password_confirmation'>;
type UserInfo = { data: { email: string; first_name: string; last_name: string; purpose: string } };

// The whole request is checked (token and e-mail come from the link): 'Password confirmation does not
// match' lands under the confirmation field.
const resolver = zodResolver<TPasswordResetRequest>(ZPasswordResetRequest);

/**
 * Choose a new password from a reset link (spec 000 §2 /password/reset?token=&email=; §7 POST
 * /v1/token/verify, /v1/userinfo, /v1/password/reset). An invitation (a user created without a password,
 * `&invitation=1`, userinfo's purpose 'invitation') opens the same screen with a welcome, and signs the
 * user in once the password is set (ADR 019).
 */
export default function PasswordResetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const emailParam = params.get('email') ?? '';

  const verify = usePostOnce<TSuccessMessage>(
    '/v1/token/verify',
    token ? { token, ...(emailParam ? { email: emailParam } : {}) } : null,
  );
  // Only to greet the user (and to know the address when the link has none); its failure is not shown.
  const info = usePostOnce<UserInfo>('/v1/userinfo', token ? { token } : null);
  const infoData = info.status === 'success' ? info.data.data : null;
  const email = emailParam || infoData?.email || '';
  const invitation = infoData ? infoData.purpose === 'invitation' : params.get('invitation') === '1';

  const [submitting, setSubmitting] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(null);
  const validate = useCallback((values: FormValues) => resolver({ ...values, token, email }), [token, email]);
  const form = useForm<FormValues>({
    initialValues: { password: '', password_confirmation: '' },
    validate,
  });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    try {
      const body: TPasswordResetRequest = { ...values, token, email };
      await api<TSuccessMessage>('/v1/password/reset', { method: 'POST', body });
      if (invitation) {
        // Welcome in: the new password signs the invited user in at once.
        const res = await api<TLoginResponse>('/v1/login', {
          method: 'POST',
          body: { email, password: values.password },
        });
        auth.signIn(res.access_token, res.role_group);
        navigate(`/${res.role_group.toLowerCase()}/`, { replace: true });
        return;
      }
      // The api client toasts the server's success message.
      navigate('/login', { replace: true });
    } catch (err) {
      applyServerErrors(form, err, ['password', 'password_confirmation']);
      if (err instanceof ApiError && (err.field('token') || err.field('email'))) {
        setLinkError(err.field('token') ?? err.field('email') ?? null);
      }
      setSubmitting(false);
    }
  });

  const requestNew = (
    <Anchor component={Link} to="/password/email" size="sm" data-testid="password-reset-request-new">
      {t('screens.password_reset.request_new')}
    </Anchor>
  );
  const backToLogin = (
    <Anchor component={Link} to="/login" size="sm">
      {t('auth.back_to_login')}
    </Anchor>
  );

  const invalid = !token
    ? t('auth.reset_token_invalid')
    : verify.status === 'error'
      ? apiErrorText(verify.error, t('auth.reset_token_invalid'), 'token')
      : linkError;
  if (invalid) {
    return (
      <Stack>
        <Title order={2}>{t('screens.password_reset.invalid_title')}</Title>
        <Alert color="red" data-testid="password-reset-invalid">
          {invalid}
        </Alert>
        {invitation && <Text size="sm">{t('screens.invitation.expired_hint')}</Text>}
        {requestNew}
        {backToLogin}
      </Stack>
    );
  }

  if (verify.status === 'pending') {
    return (
      <Center py="xl">
        <Stack align="center">
          <Loader aria-label={t('common.loading')} />
          <Text size="sm">{t('screens.password_reset.checking')}</Text>
        </Stack>
      </Center>
    );
  }

  // Token or e-mail problems have no field of their own on this form.
  const hidden = form.errors.token ?? form.errors.email;
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={2} data-testid="password-reset-title">
          {invitation ? t('screens.invitation.title') : t('auth.reset_password')}
        </Title>
        <Text size="sm" c="dimmed" data-testid="password-reset-greeting">
          {infoData
            ? t(invitation ? 'screens.invitation.greeting' : 'screens.password_reset.greeting', {
                name: infoData.first_name || infoData.email,
                email: infoData.email,
              })
            : t(invitation ? 'screens.invitation.intro' : 'screens.password_reset.intro')}
        </Text>
        {hidden ? <Alert color="red">{hidden}</Alert> : null}
        <PasswordField
          form={form}
          name="password"
          label={t('screens.password_reset.password')}
          required
          autoFocus
          testId="password-reset-password"
        />
        <PasswordField
          form={form}
          name="password_confirmation"
          label={t('auth.password_confirmation')}
          required
          testId="password-reset-confirmation"
        />
        <Button type="submit" fullWidth loading={submitting} data-testid="password-reset-submit">
          {invitation ? t('screens.invitation.submit') : t('auth.set_password')}
        </Button>
        {backToLogin}
      </Stack>
    </form>
  );
}
