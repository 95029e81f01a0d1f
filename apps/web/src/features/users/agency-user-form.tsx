import {
  Button,
  Center,
  Group,
  Loader,
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
import {
  AGENCY_USER_TYPE_VALUES,
  type TAgencyUser,
  type TCreateAgencyUserRequest,
  type TUpdateAgencyUserRequest,
  ZChangePasswordRequest,
  ZCreateAgencyUserRequest,
  ZUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { pathOf } from '../../app/route-table.ts';
import { SetPasswordForm } from '../../components/set-password-form.tsx';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import {
  useAgencyUser,
  useChangeAgencyUserPassword,
  useCreateAgencyUser,
  useResetAgencyUserPassword,
  useUpdateAgencyUser,
} from './api/agency-users.ts';

type Values = {
  email: string;
  first_name: string;
  last_name: string;
  user_type: string | null;
  active: boolean;
  password: string;
  password_confirmation: string;
};

const FIELDS = [
  'email',
  'first_name',
  'last_name',
  'user_type',
  'active',
  'password',
  'password_confirmation',
];

const createRequestOf = (v: Values) => ({
  email: v.email,
  first_name: v.first_name,
  last_name: v.last_name,
  user_type: v.user_type ?? undefined,
  password: v.password,
  password_confirmation: v.password_confirmation,
});
const updateRequestOf = (v: Values) => ({
  email: v.email,
  first_name: v.first_name,
  last_name: v.last_name,
  user_type: v.user_type ?? undefined,
  active: v.active,
});
const resolveCreate = zodResolver(ZCreateAgencyUserRequest);
const resolveUpdate = zodResolver(ZUpdateAgencyUserRequest);

/** Add or edit an agency user (AccountManager, FinanaceManager, MarketingManager). */
export default function AgencyUserForm() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const user = useAgencyUser(id);
  if (!id) return <UserFormBody />;
  if (user.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  if (!user.data) return <Text c="red">{t('agency.common.load_failed')}</Text>;
  return (
    <Stack maw={760}>
      <UserFormBody key={user.data.id} user={user.data} />
      <ChangePassword id={user.data.id} />
    </Stack>
  );
}

function UserFormBody({ user }: { user?: TAgencyUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateAgencyUser();
  const update = useUpdateAgencyUser(user?.id ?? 0);
  const reset = useResetAgencyUserPassword();
  const editing = user !== undefined;
  const form = useForm<Values>({
    initialValues: {
      email: user?.email ?? '',
      first_name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      user_type: user?.user_type ?? null,
      active: user?.active ?? true,
      password: '',
      password_confirmation: '',
    },
    validate: (v) => (editing ? resolveUpdate(updateRequestOf(v)) : resolveCreate(createRequestOf(v))),
  });
  const toList = () => navigate(pathOf('agency.users'));
  const onError = (err: unknown) => applyServerErrors(form, err, FIELDS);
  const submit = form.onSubmit((v) => {
    if (editing)
      update.mutate(updateRequestOf(v) as TUpdateAgencyUserRequest, { onSuccess: toList, onError });
    else create.mutate(createRequestOf(v) as TCreateAgencyUserRequest, { onSuccess: toList, onError });
  });
  const types = AGENCY_USER_TYPE_VALUES.map((value) => ({ value, label: t(`agency.users.types.${value}`) }));

  return (
    <form onSubmit={submit} noValidate>
      <Stack maw={760}>
        <Title order={2} data-testid="page-title">
          {editing ? t('agency.users.edit') : t('agency.users.add')}
        </Title>
        <Paper withBorder p="lg" radius="md">
          <Stack>
            <TextInput
              label={t('agency.users.email')}
              type="email"
              required
              data-testid="agency-user-form-email"
              {...form.getInputProps('email')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                label={t('agency.users.first_name')}
                required
                data-testid="agency-user-form-first-name"
                {...form.getInputProps('first_name')}
              />
              <TextInput
                label={t('agency.users.last_name')}
                data-testid="agency-user-form-last-name"
                {...form.getInputProps('last_name')}
              />
            </SimpleGrid>
            <Select
              label={t('agency.users.user_type')}
              data={types}
              required
              data-testid="agency-user-form-type"
              {...form.getInputProps('user_type')}
            />
            {editing ? (
              <Switch
                label={t('agency.users.active')}
                data-testid="agency-user-form-active"
                {...form.getInputProps('active', { type: 'checkbox' })}
              />
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <PasswordInput
                  label={t('agency.users.password')}
                  autoComplete="new-password"
                  required
                  data-testid="agency-user-form-password"
                  {...form.getInputProps('password')}
                />
                <PasswordInput
                  label={t('agency.users.password_confirmation')}
                  autoComplete="new-password"
                  required
                  data-testid="agency-user-form-password-confirmation"
                  {...form.getInputProps('password_confirmation')}
                />
              </SimpleGrid>
            )}
          </Stack>
        </Paper>
        <Group justify="space-between">
          <div>
            {editing && (
              <Button
                variant="light"
                loading={reset.isPending}
                onClick={() => reset.mutate(user.id)}
                data-testid="agency-user-reset-password"
              >
                {t('agency.users.actions.reset_password')}
              </Button>
            )}
          </div>
          <Group>
            <Button variant="default" onClick={toList}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={create.isPending || update.isPending}
              data-testid="agency-user-form-submit"
            >
              {t('common.save')}
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}

/** Set an agency user's password (PUT /v1/agency/users/{id}/change-password). */
function ChangePassword({ id }: { id: number }) {
  const { t } = useTranslation();
  const change = useChangeAgencyUserPassword(id);
  return (
    <SetPasswordForm
      title={t('agency.users.change_password')}
      labels={{
        password: t('agency.users.password'),
        confirmation: t('agency.users.password_confirmation'),
        submit: t('agency.users.change_password'),
      }}
      testIds={{
        password: 'agency-user-new-password',
        confirmation: 'agency-user-new-password-confirmation',
        submit: 'agency-user-change-password',
      }}
      schema={ZChangePasswordRequest}
      onSave={(values) => change.mutateAsync(values)}
      pending={change.isPending}
    />
  );
}
