import { Avatar, Divider, Group, NativeSelect, PasswordInput, SimpleGrid, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { LANGUAGES, type TLanguage } from '@stn/contracts/constants';
import { type TUser, ZUpdateProfileRequest } from '@stn/contracts/profile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PendingEmailNotice, useImpersonationLock } from '../../components/credentials.tsx';
import { BoundForm, NameFields, TextField } from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { Loading } from '../../components/load-state.tsx';
import { api } from '../../lib/api-client.ts';
import { auth, useAuth } from '../../lib/auth-store.ts';
import { changeLanguage } from '../../lib/i18n.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { avatarInitials } from './avatar-initials.ts';

type ProfileValues = {
  avatar: string;
  first_name: string;
  last_name: string;
  email: string;
  language: TLanguage;
  current_password: string;
  password: string;
  password_confirmation: string;
};

const FIELDS = [
  'avatar',
  'first_name',
  'last_name',
  'email',
  'language',
  'current_password',
  'password',
  'password_confirmation',
] as const;

const isLanguage = (v: unknown): v is TLanguage => LANGUAGES.includes(v as TLanguage);

function valuesOf(user: TUser): ProfileValues {
  const lang = user.settings.language;
  return {
    avatar: user.avatar ?? '',
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    language: isLanguage(lang) ? lang : 'en',
    current_password: '',
    password: '',
    password_confirmation: '',
  };
}

/**
 * The PUT /v1/profile body: the new password fields only when a new password is typed; the current
 * password whenever it is typed (a new e-mail needs it too).
 */
function requestOf(v: ProfileValues) {
  const base = {
    first_name: v.first_name,
    last_name: v.last_name,
    email: v.email,
    avatar: v.avatar.trim() || null,
    language: v.language,
    ...(v.current_password ? { current_password: v.current_password } : {}),
  };
  return v.password
    ? {
        ...base,
        current_password: v.current_password,
        password: v.password,
        password_confirmation: v.password_confirmation,
      }
    : base;
}

// The contract's rules, plus one the server also enforces: a new password needs the current one.
const ZProfileForm = ZUpdateProfileRequest.superRefine((v, ctx) => {
  if (v.password !== undefined && !v.current_password) {
    ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'validation.required' });
  }
});
const resolve = zodResolver(ZProfileForm);
const validate = (values: ProfileValues) => resolve(requestOf(values));

type UserAnswer = { success: true; message: string; data: { user: TUser } };

/** The signed-in user's profile (spec 000 §2 admin/agency/business profile; §7 PUT /v1/profile). */
export default function ProfilePage() {
  const { user } = useAuth();
  if (!user) {
    return <Loading />;
  }
  return <ProfileForm user={user} />;
}

function ProfileForm({ user }: { user: TUser }) {
  const { t } = useTranslation();
  // An impersonation never changes the user's e-mail or password (ADRs 019, 050).
  const lock = useImpersonationLock();
  const [saving, setSaving] = useState(false);
  // Made once from the user: a later change of the stored user never overwrites what is being typed.
  const form = useForm<ProfileValues>({ initialValues: valuesOf(user), validate });

  const submit = form.onSubmit(async (values) => {
    setSaving(true);
    try {
      const res = await api<UserAnswer>('/v1/profile', { method: 'PUT', body: requestOf(values) });
      auth.setUser(res.data.user);
      await changeLanguage(values.language);
      const saved = valuesOf(res.data.user);
      form.setValues(saved);
      form.resetDirty(saved);
    } catch (err) {
      // A 422 shows next to its fields (and the api client toasts the first); the values stay as typed.
      applyServerErrors(form, err, FIELDS);
    } finally {
      setSaving(false);
    }
  });

  // The language applies on selection (the whole interface switches) and is saved at once with
  // PUT /v1/setting, as the profile's other fields wait for Save; a refused save switches back.
  const pickLanguage = async (next: string) => {
    if (!isLanguage(next)) return;
    const previous = form.values.language;
    form.setFieldValue('language', next);
    await changeLanguage(next);
    try {
      const res = await api<UserAnswer>('/v1/setting', { method: 'PUT', body: { language: next } });
      auth.setUser(res.data.user);
    } catch {
      form.setFieldValue('language', previous);
      await changeLanguage(previous);
    }
  };

  const { avatar, first_name, last_name } = form.values;
  const languages = LANGUAGES.map((value) => ({ value, label: t(`screens.profile.languages.${value}`) }));

  return (
    <BoundForm form={form} onSubmit={submit}>
      <Stack maw={760}>
        <Title order={2} data-testid="page-title">
          {t('screens.profile.title')}
        </Title>

        <FormSection title={t('screens.profile.details')}>
          <Group align="flex-end" wrap="nowrap">
            <Avatar
              src={avatar.trim() || null}
              alt={t('screens.profile.avatar_alt')}
              size={72}
              radius="xl"
              color="brand"
              data-testid="profile-avatar"
            >
              {avatarInitials(first_name, last_name)}
            </Avatar>
            <TextField
              name="avatar"
              flex={1}
              type="url"
              label={t('screens.profile.avatar')}
              description={t('screens.profile.avatar_hint')}
              placeholder="https://"
              testId="profile-avatar-url"
            />
          </Group>
          <NameFields
            form={form}
            labels={[t('screens.profile.first_name'), t('screens.profile.last_name')]}
            testIds={['profile-first-name', 'profile-last-name']}
            own
          />
          <TextField
            name="email"
            label={t('auth.email')}
            description={lock ?? t('screens.profile.email_hint')}
            type="email"
            autoComplete="email"
            required
            disabled={lock !== null}
            testId="profile-email"
          />
          <PendingEmailNotice
            pending={user.pending_email}
            current={user.email}
            own
            testId="profile-pending-email"
          />
          <NativeSelect
            label={t('screens.profile.language')}
            description={t('screens.profile.language_hint')}
            data={languages}
            value={form.values.language}
            onChange={(e) => void pickLanguage(e.currentTarget.value)}
            data-testid="profile-language"
          />
        </FormSection>

        <FormSection
          title={t('screens.profile.password_section')}
          hint={lock ?? t('screens.profile.password_hint')}
        >
          <PasswordInput
            disabled={lock !== null}
            label={t('screens.profile.current_password')}
            autoComplete="current-password"
            data-testid="profile-current-password"
            {...form.getInputProps('current_password')}
          />
          <Divider />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <PasswordInput
              disabled={lock !== null}
              label={t('screens.profile.new_password')}
              autoComplete="new-password"
              data-testid="profile-password"
              {...form.getInputProps('password')}
            />
            <PasswordInput
              disabled={lock !== null}
              label={t('screens.profile.password_confirmation')}
              autoComplete="new-password"
              data-testid="profile-password-confirmation"
              {...form.getInputProps('password_confirmation')}
            />
          </SimpleGrid>
        </FormSection>

        <FormActions submitting={saving} submitTestId="profile-save" />
      </Stack>
    </BoundForm>
  );
}
