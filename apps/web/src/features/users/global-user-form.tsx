import {
  Alert,
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  NativeSelect,
  Paper,
  PasswordInput,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  GLOBAL_USER_ROLES,
  type TGlobalUser,
  ZChangePasswordRequest,
  ZCreateGlobalUserRequest,
  ZUpdateGlobalUserRequest,
} from '@stn/contracts/users';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { SetPasswordForm } from '../../components/set-password-form.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import {
  useChangeGlobalUserPassword,
  useCreateGlobalUser,
  useGlobalUser,
  useUpdateGlobalUser,
} from './api/global-users.ts';

type Role = (typeof GLOBAL_USER_ROLES)[number];
type Values = {
  first_name: string;
  last_name: string;
  email: string;
  role: Role;
  active: boolean;
  password: string;
  password_confirmation: string;
};
const FIELDS = ['first_name', 'last_name', 'email', 'role', 'active', 'password', 'password_confirmation'];

const valuesOf = (u?: TGlobalUser): Values => ({
  first_name: u?.first_name ?? '',
  last_name: u?.last_name ?? '',
  email: u?.email ?? '',
  role: u?.role ?? 'Admin',
  active: u?.active ?? true,
  password: '',
  password_confirmation: '',
});

const createBody = ({ active: _active, ...v }: Values) => v;
const updateBody = ({ password: _p, password_confirmation: _c, ...v }: Values) => v;
const resolveCreate = zodResolver(ZCreateGlobalUserRequest);
const resolveUpdate = zodResolver(ZUpdateGlobalUserRequest);

/** admin.users.create and admin.users.edit (:id): a platform user, and on edit their password. */
export default function UserFormPage() {
  const { id } = useParams();
  if (!id) return <UserForm />;
  return <EditUser id={Number(id)} />;
}

function EditUser({ id }: { id: number }) {
  const { t } = useTranslation();
  const user = useGlobalUser(id);
  if (user.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  if (!user.data) return <Alert color="red">{t('admin.users.not_found')}</Alert>;
  return (
    <Stack maw={860}>
      <UserForm key={id} user={user.data} />
      <PasswordPanel key={`pw-${id}`} id={id} />
    </Stack>
  );
}

function UserForm({ user }: { user?: TGlobalUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user: me } = useAuth();
  const create = useCreateGlobalUser();
  const update = useUpdateGlobalUser(user?.id ?? 0);
  const self = user !== undefined && user.id === me?.id;
  const form = useForm<Values>({
    initialValues: valuesOf(user),
    validate: (v) => (user ? resolveUpdate(updateBody(v)) : resolveCreate(createBody(v))),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      if (user) await update.mutateAsync(updateBody(values));
      else await create.mutateAsync(createBody(values));
      navigate(pathOf('admin.users'));
    } catch (err) {
      applyServerErrors(form, err, FIELDS);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={860}>
        <div>
          <Anchor component={Link} to={pathOf('admin.users')} size="sm">
            {t('admin.users.back')}
          </Anchor>
          <Title order={2} data-testid="page-title">
            {user ? t('admin.users.edit_title') : t('admin.users.add')}
          </Title>
        </div>
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('admin.users.first_name')}
                required
                data-testid="user-first-name"
                {...form.getInputProps('first_name')}
              />
              <TextInput
                label={t('admin.users.last_name')}
                data-testid="user-last-name"
                {...form.getInputProps('last_name')}
              />
            </SimpleGrid>
            <TextInput
              label={t('admin.users.email')}
              type="email"
              required
              autoComplete="off"
              data-testid="user-email"
              {...form.getInputProps('email')}
            />
            <NativeSelect
              label={t('admin.users.role')}
              data={GLOBAL_USER_ROLES.map((r) => ({ value: r, label: t(`admin.users.roles.${r}`) }))}
              disabled={self}
              data-testid="user-role"
              {...form.getInputProps('role')}
            />
            {user ? (
              <Switch
                label={t('admin.users.active')}
                disabled={self}
                data-testid="user-active"
                {...form.getInputProps('active', { type: 'checkbox' })}
              />
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <PasswordInput
                  label={t('admin.users.password')}
                  required
                  autoComplete="new-password"
                  data-testid="user-password"
                  {...form.getInputProps('password')}
                />
                <PasswordInput
                  label={t('admin.users.password_confirmation')}
                  required
                  autoComplete="new-password"
                  data-testid="user-password-confirmation"
                  {...form.getInputProps('password_confirmation')}
                />
              </SimpleGrid>
            )}
          </Stack>
        </Paper>
        <Group justify="flex-end">
          <Button type="submit" loading={create.isPending || update.isPending} data-testid="user-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function PasswordPanel({ id }: { id: number }) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const change = useChangeGlobalUserPassword(id);
  // One's own password is changed from the profile.
  if (me?.id === id) return null;
  return (
    <SetPasswordForm
      title={t('admin.users.change_password')}
      labels={{
        password: t('admin.users.password'),
        confirmation: t('admin.users.password_confirmation'),
        submit: t('admin.users.change_password'),
      }}
      testIds={{
        password: 'user-new-password',
        confirmation: 'user-new-password-confirmation',
        submit: 'user-password-submit',
      }}
      schema={ZChangePasswordRequest}
      onSave={(values) => change.mutateAsync(values)}
      pending={change.isPending}
    />
  );
}
