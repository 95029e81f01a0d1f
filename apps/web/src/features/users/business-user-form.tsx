import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  MultiSelect,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { modals } from '@mantine/modals';
import { AGENT_TYPES, BUSINESS_USER_TYPES, type TCustomTypePage } from '@stn/contracts/roles';
import {
  BUSINESS_USER_ROLES,
  type TBusinessUser,
  ZChangePasswordRequest,
  ZCreateBusinessUserRequest,
  ZUpdateBusinessUserRequest,
} from '@stn/contracts/users';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { SetPasswordForm } from '../../components/set-password-form.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-store.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import {
  useBusinessUser,
  useChangeUserPassword,
  useCreateBusinessUser,
  useSendResetLink,
  useUpdateBusinessUser,
} from './api/business-users.ts';
import { useCustomPageOptions } from './user-labels.ts';

type Role = (typeof BUSINESS_USER_ROLES)[number];

type UserValues = {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirmation: string;
  role: Role;
  user_type: string | null;
  /** 'none' for no agent type. */
  agent_type: string;
  custom_type_pages: string[];
  active: boolean;
};

const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'password',
  'password_confirmation',
  'role',
  'user_type',
  'agent_type',
  'custom_type_pages',
  'active',
] as const;

const PAGES_PATH = 'settings.custom_type_pages';

function valuesOf(user: TBusinessUser | null): UserValues {
  return {
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    email: user?.email ?? '',
    password: '',
    password_confirmation: '',
    role: user?.role ?? 'BusinessUser',
    user_type: user?.user_type ?? null,
    agent_type: user?.agent_type ?? 'none',
    custom_type_pages: user?.settings.custom_type_pages ?? [],
    active: user?.active ?? true,
  };
}

/** The request body: a user type and pages only for a BusinessUser, pages only for the custom type. */
function requestOf(v: UserValues, create: boolean) {
  const isUser = v.role === 'BusinessUser';
  const body = {
    first_name: v.first_name,
    last_name: v.last_name,
    email: v.email,
    role: v.role,
    user_type: isUser ? (v.user_type as TBusinessUser['user_type']) : null,
    agent_type: v.agent_type === 'none' ? null : (v.agent_type as TBusinessUser['agent_type']),
    settings: {
      custom_type_pages: (isUser && v.user_type === '4' ? v.custom_type_pages : []) as TCustomTypePage[],
    },
  };
  return create
    ? { ...body, password: v.password, password_confirmation: v.password_confirmation }
    : { ...body, active: v.active };
}

/** The contract nests the pages under settings; the form keeps them as one field. */
function flatten(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) out[k.startsWith(PAGES_PATH) ? 'custom_type_pages' : k] = v;
  return out;
}

const resolveCreate = zodResolver(ZCreateBusinessUserRequest);
const resolveUpdate = zodResolver(ZUpdateBusinessUserRequest);

/** Add a user (business.users.create) or edit one (business.users.edit). */
export default function UserFormPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const user = useBusinessUser(id);
  if (!id) return <UserForm key="new" user={null} />;
  if (user.isError)
    return (
      <Alert color="red" data-testid="user-load-error">
        {user.error instanceof ApiError ? user.error.message : t('business.common.load_failed')}
      </Alert>
    );
  if (!user.data)
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  return <UserForm key={user.data.id} user={user.data} />;
}

function UserForm({ user }: { user: TBusinessUser | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = user === null;
  const [formError, setFormError] = useState<string | null>(null);
  const createUser = useCreateBusinessUser();
  const updateUser = useUpdateBusinessUser(user?.id ?? 0);
  const pageOptions = useCustomPageOptions();
  const form = useForm<UserValues>({
    initialValues: valuesOf(user),
    validate: (values) => flatten((create ? resolveCreate : resolveUpdate)(requestOf(values, create))),
  });

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const body = requestOf(values, create);
      if (create) await createUser.mutateAsync(body as Parameters<typeof createUser.mutateAsync>[0]);
      else await updateUser.mutateAsync(body);
      navigate(pathOf('business.users'));
    } catch (err) {
      if (!(err instanceof ApiError)) return;
      applyServerErrors(form, err, FIELDS);
      const pages = err.field(PAGES_PATH);
      if (pages) form.setFieldError('custom_type_pages', pages);
      // The users limit is a 422 on 'users', a field the form does not have: shown above the buttons.
      const limit = err.field('users');
      if (limit) setFormError(limit);
    }
  });

  const isUser = form.values.role === 'BusinessUser';
  const roles = BUSINESS_USER_ROLES.map((value) => ({ value, label: t(`business.users.roles.${value}`) }));
  const types = Object.keys(BUSINESS_USER_TYPES).map((value) => ({
    value,
    label: t(`business.users.types.${value}`),
  }));
  const agentTypes = ['none', ...AGENT_TYPES].map((value) => ({
    value,
    label: t(`business.users.agent_types.${value}`),
  }));

  return (
    <Stack maw={760}>
      <Title order={2} data-testid="page-title">
        {create ? t('business.users.add') : t('business.users.edit')}
      </Title>
      <form onSubmit={submit} noValidate>
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('business.users.first_name')}
                required
                data-testid="user-form-first-name"
                {...form.getInputProps('first_name')}
              />
              <TextInput
                label={t('business.users.last_name')}
                data-testid="user-form-last-name"
                {...form.getInputProps('last_name')}
              />
            </SimpleGrid>
            <TextInput
              label={t('business.users.email')}
              type="email"
              required
              autoComplete="off"
              data-testid="user-form-email"
              {...form.getInputProps('email')}
            />
            {create && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <PasswordInput
                  label={t('business.users.password')}
                  required
                  autoComplete="new-password"
                  data-testid="user-form-password"
                  {...form.getInputProps('password')}
                />
                <PasswordInput
                  label={t('business.users.password_confirmation')}
                  required
                  autoComplete="new-password"
                  data-testid="user-form-password-confirmation"
                  {...form.getInputProps('password_confirmation')}
                />
              </SimpleGrid>
            )}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select
                label={t('business.users.role')}
                data={roles}
                allowDeselect={false}
                data-testid="user-form-role"
                {...form.getInputProps('role')}
              />
              {isUser && (
                <Select
                  label={t('business.users.user_type')}
                  data={types}
                  required
                  data-testid="user-form-user-type"
                  {...form.getInputProps('user_type')}
                />
              )}
            </SimpleGrid>
            {isUser && form.values.user_type === '4' && (
              <MultiSelect
                label={t('business.users.custom_pages')}
                description={t('business.users.custom_pages_hint')}
                data={pageOptions}
                required
                searchable
                data-testid="user-form-pages"
                {...form.getInputProps('custom_type_pages')}
              />
            )}
            <Select
              label={t('business.users.agent_type')}
              data={agentTypes}
              allowDeselect={false}
              data-testid="user-form-agent-type"
              {...form.getInputProps('agent_type')}
            />
            {!create && (
              <Switch
                label={t('business.common.active')}
                data-testid="user-form-active"
                {...form.getInputProps('active', { type: 'checkbox' })}
              />
            )}
            {formError && (
              <Alert color="red" data-testid="user-form-error">
                {formError}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={pathOf('business.users')}>
                {t('common.cancel')}
              </Button>
              <Button
                type="submit"
                loading={createUser.isPending || updateUser.isPending}
                data-testid="user-form-submit"
              >
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </form>
      {user && <PasswordSection user={user} />}
    </Stack>
  );
}

/** Another user's password: set it here, or e-mail them a reset link. */
function PasswordSection({ user }: { user: TBusinessUser }) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const change = useChangeUserPassword(user.id);
  const reset = useSendResetLink();
  // Your own password is changed from the profile (the server refuses it here).
  if (me?.id === user.id) return null;

  const confirmReset = () =>
    modals.openConfirmModal({
      title: t('business.users.reset_link'),
      children: <Text size="sm">{t('business.users.reset_link_confirm', { email: user.email })}</Text>,
      labels: { confirm: t('business.users.send'), cancel: t('common.cancel') },
      onConfirm: () => reset.mutate(user.id),
    });

  return (
    <SetPasswordForm
      title={t('business.users.change_password')}
      labels={{
        password: t('business.users.password'),
        confirmation: t('business.users.password_confirmation'),
        submit: t('business.users.change_password'),
      }}
      testIds={{
        password: 'user-password-new',
        confirmation: 'user-password-confirmation',
        submit: 'user-password-submit',
      }}
      schema={ZChangePasswordRequest}
      onSave={(values) => change.mutateAsync(values)}
      pending={change.isPending}
      extra={
        <Button
          variant="subtle"
          onClick={confirmReset}
          loading={reset.isPending}
          data-testid="user-reset-link"
        >
          {t('business.users.reset_link')}
        </Button>
      }
    />
  );
}
