import { Anchor, Button, Group, PasswordInput, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type TLoginRequest, type TLoginResponse, ZLoginRequest } from '@stn/contracts/auth';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { TextField } from '../../components/form/fields.tsx';
import { api } from '../../lib/api-client.ts';
import { auth } from '../../lib/auth-store.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';

/** Only a path of this site (not '//host' or a full URL): the `redirect` param is user-controlled. */
function safeRedirect(value: string | null): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

const validate = zodResolver<TLoginRequest>(ZLoginRequest);

/** Sign in (spec 000 §2 /login and auth/login; §7 POST /v1/login). */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [submitting, setSubmitting] = useState(false);
  const form = useForm<TLoginRequest>({
    initialValues: { email: '', password: '' },
    validate,
  });

  const submit = form.onSubmit(async (values) => {
    setSubmitting(true);
    try {
      const res = await api<TLoginResponse>('/v1/login', {
        method: 'POST',
        body: { email: values.email.trim(), password: values.password },
      });
      auth.signIn(res.access_token, res.role_group);
      // Navigate before the profile is in: the shell shows its loader while a token has no user yet, and
      // the guards then judge the target with the loaded user. Navigating after the user is set would race
      // the guard of /login itself, which sends a signed-in user to the dashboard and drops `redirect`.
      navigate(safeRedirect(params.get('redirect')) ?? `/${res.role_group.toLowerCase()}/`, {
        replace: true,
      });
      // The session hook loads the profile for the new token (a failed load logs out and goes to '/').
    } catch (err) {
      // 422: the message goes next to its field (the api client also toasts the first one).
      applyServerErrors(form, err, ['email', 'password']);
      setSubmitting(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={2}>{t('screens.login.title')}</Title>
        <TextField
          form={form}
          name="email"
          label={t('auth.email')}
          type="email"
          autoComplete="username"
          required
          autoFocus
          testId="login-email"
        />
        <PasswordInput
          label={t('auth.password')}
          autoComplete="current-password"
          required
          data-testid="login-password"
          {...form.getInputProps('password')}
        />
        <Group justify="flex-end">
          <Anchor component={Link} to="/password/email" size="sm" data-testid="login-forgot">
            {t('auth.forgot_link')}
          </Anchor>
        </Group>
        <Button type="submit" fullWidth loading={submitting} data-testid="login-submit">
          {t('auth.sign_in')}
        </Button>
      </Stack>
    </form>
  );
}
