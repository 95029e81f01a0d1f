import { Alert, Button, SimpleGrid, Stack } from '@mantine/core';
import {
  AGENCY_USER_TYPE_VALUES,
  ZChangePasswordRequest as ZChangeAgencyUserPassword,
  ZCreateAgencyUserRequest,
  ZUpdateAgencyUserRequest,
} from '@stn/contracts/businesses';
import { AGENT_TYPES, BUSINESS_USER_TYPES, type TCustomTypePage } from '@stn/contracts/roles';
import {
  BUSINESS_USER_ROLES,
  GLOBAL_USER_ROLES,
  ZChangePasswordRequest,
  ZCreateBusinessUserRequest,
  ZCreateGlobalUserRequest,
  ZUpdateBusinessUserRequest,
  ZUpdateGlobalUserRequest,
} from '@stn/contracts/users';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PendingEmailNotice, useImpersonationLock } from '../../components/credentials.tsx';
import {
  MultiSelectField,
  NameFields,
  NativeSelectField,
  PasswordPair,
  SelectField,
  SwitchField,
  TextField,
} from '../../components/form/fields.tsx';
import { FormActions } from '../../components/form/form-actions.tsx';
import { FormShell } from '../../components/form/form-shell.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { confirmAction } from '../../components/list/confirm.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { SetPasswordForm } from '../../components/set-password-form.tsx';
import type { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import type { UserKind } from '../../lib/query-keys.ts';
import { useRouteName } from '../../lib/use-route-name.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import {
  useAgencyUser,
  useChangeAgencyUserPassword,
  useCreateAgencyUser,
  useResetAgencyUserPassword,
  useUpdateAgencyUser,
} from './api/agency-users.ts';
import {
  useBusinessUser,
  useChangeUserPassword,
  useCreateBusinessUser,
  useSendResetLink,
  useUpdateBusinessUser,
} from './api/business-users.ts';
import {
  useChangeGlobalUserPassword,
  useCreateGlobalUser,
  useGlobalUser,
  useUpdateGlobalUser,
} from './api/global-users.ts';
import { useCustomPageOptions } from './user-labels.ts';

// One form for every user kind: platform users (admin.users), agency users (agency.users) and business
// users (business.users). The kind decides the sections (role, user type, custom pages, agent type), the
// contract schemas, the calls and the texts; the field test ids stay those each screen always had.

/** What a user record of any kind may hold (global users have a role, agency users a user type...). */
type AnyUser = {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  active: boolean;
  role?: string;
  user_type?: string | null;
  agent_type?: string | null;
  settings?: { custom_type_pages?: readonly string[] };
  /** Business users: the business's owner. */
  is_owner?: boolean;
  /** Business users: the staff phone (E.164). */
  phone?: string | null;
  /** A new address not confirmed yet (ADR 050). */
  pending_email?: string | null;
};

type Values = {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirmation: string;
  role: string;
  user_type: string | null;
  /** 'none' for no agent type. */
  agent_type: string;
  custom_type_pages: string[];
  active: boolean;
  /** Business users: the staff phone; '' for none. */
  phone: string;
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
  'phone',
] as const;

const PAGES_PATH = 'settings.custom_type_pages';

const valuesOf = (kind: UserKind, u?: AnyUser): Values => ({
  first_name: u?.first_name ?? '',
  last_name: u?.last_name ?? '',
  email: u?.email ?? '',
  password: '',
  password_confirmation: '',
  role: u?.role ?? (kind === 'global' ? 'Admin' : 'BusinessUser'),
  user_type: u?.user_type ?? null,
  agent_type: u?.agent_type ?? 'none',
  custom_type_pages: [...(u?.settings?.custom_type_pages ?? [])],
  active: u?.active ?? true,
  phone: u?.phone ?? '',
});

const identity = (v: Values) => ({ first_name: v.first_name, last_name: v.last_name, email: v.email });
const withPassword = (v: Values) => ({
  password: v.password,
  password_confirmation: v.password_confirmation,
});

/**
 * Why this form may not change the user's e-mail and password (the server refuses it, ADR 019): one's own
 * are changed from the profile, with the current password; a business owner's only by the owner. Null when
 * the form may. (An impersonation never changes them either: `useImpersonationLock`, ADR 050.)
 */
function credentialsLock(user: AnyUser | undefined, meId: number | undefined): string | null {
  if (!user) return null;
  if (user.id === meId) return 'screens.credentials.own_hint';
  if (user.is_owner) return 'screens.credentials.owner_hint';
  return null;
}

/** The hint shown beside a user's e-mail field when it may not be changed here, or null. */
function useEmailLock(user: AnyUser | undefined, meId: number | undefined): string | null {
  const { t } = useTranslation();
  const impersonating = useImpersonationLock();
  // A new user's address is no existing account's key: creating one stays allowed under impersonation.
  if (!user) return null;
  const key = credentialsLock(user, meId);
  return impersonating ?? (key ? t(key) : null);
}

/** The request body of each kind, create or update. */
const BODY: Record<UserKind, (v: Values, create: boolean) => Record<string, unknown>> = {
  global: (v, create) => ({
    ...identity(v),
    role: v.role,
    ...(create ? withPassword(v) : { active: v.active }),
  }),
  agency: (v, create) => ({
    ...identity(v),
    user_type: v.user_type ?? undefined,
    ...(create ? withPassword(v) : { active: v.active }),
  }),
  // A user type and pages only for a BusinessUser, pages only for the custom type.
  business: (v, create) => {
    const isUser = v.role === 'BusinessUser';
    return {
      ...identity(v),
      role: v.role,
      user_type: isUser ? v.user_type : null,
      agent_type: v.agent_type === 'none' ? null : v.agent_type,
      phone: v.phone.trim() === '' ? null : v.phone,
      settings: {
        custom_type_pages: (isUser && v.user_type === '4' ? v.custom_type_pages : []) as TCustomTypePage[],
      },
      ...(create ? withPassword(v) : { active: v.active }),
    };
  },
};

const RESOLVE: Record<
  UserKind,
  { create: ReturnType<typeof zodResolver>; update: ReturnType<typeof zodResolver> }
> = {
  global: { create: zodResolver(ZCreateGlobalUserRequest), update: zodResolver(ZUpdateGlobalUserRequest) },
  agency: { create: zodResolver(ZCreateAgencyUserRequest), update: zodResolver(ZUpdateAgencyUserRequest) },
  business: {
    create: zodResolver(ZCreateBusinessUserRequest),
    update: zodResolver(ZUpdateBusinessUserRequest),
  },
};

/** The contract nests the pages under settings; the form keeps them as one field. */
function flatten(errors: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) out[k.startsWith(PAGES_PATH) ? 'custom_type_pages' : k] = v;
  return out;
}

type Kind = {
  /** Locale namespace of the kind's texts. */
  ns: string;
  list: string;
  title: { add: string; edit: string };
  /** Test id prefix of the fields ('user' gives user-email, user-submit...). */
  tid: string;
  /** Test ids of the set-password panel. */
  passwordTids: { password: string; confirmation: string; submit: string };
  width: number;
};

const KINDS: Record<UserKind, Kind> = {
  global: {
    ns: 'admin.users',
    list: 'admin.users',
    title: { add: 'admin.users.add', edit: 'admin.users.edit_title' },
    tid: 'user',
    passwordTids: {
      password: 'user-new-password',
      confirmation: 'user-new-password-confirmation',
      submit: 'user-password-submit',
    },
    width: 860,
  },
  agency: {
    ns: 'agency.users',
    list: 'agency.users',
    title: { add: 'agency.users.add', edit: 'agency.users.edit' },
    tid: 'agency-user-form',
    passwordTids: {
      password: 'agency-user-new-password',
      confirmation: 'agency-user-new-password-confirmation',
      submit: 'agency-user-change-password',
    },
    width: 760,
  },
  business: {
    ns: 'business.users',
    list: 'business.users',
    title: { add: 'business.users.add', edit: 'business.users.edit' },
    tid: 'user-form',
    passwordTids: {
      password: 'user-password-new',
      confirmation: 'user-password-confirmation',
      submit: 'user-password-submit',
    },
    width: 760,
  },
};

type Calls = {
  save: (body: Record<string, unknown>) => Promise<unknown>;
  saving: boolean;
};

/** The kind's create or update call (the kind never changes while the form is shown). */
function useSave(kind: UserKind, id: number): Calls {
  const hooks = {
    global: [useCreateGlobalUser, useUpdateGlobalUser],
    agency: [useCreateAgencyUser, useUpdateAgencyUser],
    business: [useCreateBusinessUser, useUpdateBusinessUser],
  } as const;
  const [useCreate, useUpdate] = hooks[kind];
  const create = useCreate();
  const update = useUpdate(id);
  const mutate = (id ? update.mutateAsync : create.mutateAsync) as (
    b: Record<string, unknown>,
  ) => Promise<unknown>;
  return { save: mutate, saving: create.isPending || update.isPending };
}

function useLoad(kind: UserKind, id: number) {
  const use = { global: useGlobalUser, agency: useAgencyUser, business: useBusinessUser }[kind];
  return use(id);
}

/** admin.users.*, agency.users.* and business.users.* create and edit (:id): the area says the kind. */
export default function UserFormPage() {
  const id = Number(useParams().id ?? 0);
  const area = useRouteName().split('.')[0];
  const kind: UserKind = area === 'admin' ? 'global' : area === 'agency' ? 'agency' : 'business';
  return <UserFormScreen key={`${kind}-${id}`} kind={kind} id={id} />;
}

/** The add and edit screens of a user of `kind`: the form, and on edit the other user's password. */
export function UserFormScreen({ kind, id }: { kind: UserKind; id: number }) {
  const { t } = useTranslation();
  const user = useLoad(kind, id);
  const k = KINDS[kind];
  if (!id) return <UserForm kind={kind} key="new" />;
  if (user.isError)
    return (
      <LoadFailed
        message={kind === 'global' ? t('admin.users.not_found') : user.error.message}
        testId="user-load-error"
      />
    );
  if (!user.data) return <Loading />;
  return (
    <Stack maw={k.width}>
      <UserForm kind={kind} key={user.data.id} user={user.data as AnyUser} />
      <PasswordSection kind={kind} user={user.data as AnyUser} />
    </Stack>
  );
}

function UserForm({ kind, user }: { kind: UserKind; user?: AnyUser }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user: me } = useAuth();
  const k = KINDS[kind];
  const create = user === undefined;
  const self = user !== undefined && user.id === me?.id;
  const locked = useEmailLock(user, me?.id);
  const calls = useSave(kind, user?.id ?? 0);
  const pageOptions = useCustomPageOptions();
  const [formError, setFormError] = useState<string | null>(null);
  const resolve = create ? RESOLVE[kind].create : RESOLVE[kind].update;
  const { form, submit } = useApiForm<Values>({
    initialValues: valuesOf(kind, user),
    validate: (v) => flatten(resolve(BODY[kind](v, create))),
    fields: FIELDS,
    onSubmit: (v) => {
      setFormError(null);
      return calls.save(BODY[kind](v, create));
    },
    onSuccess: () => navigate(pathOf(k.list)),
    onError: (err: ApiError, f) => {
      const pages = err.field(PAGES_PATH);
      if (pages) f.setFieldError('custom_type_pages', pages);
      // The users limit is a 422 on 'users', a field the form does not have: shown above the buttons.
      const limit = err.field('users');
      if (limit) setFormError(limit);
    },
  });
  const label = (name: string) => t(`${k.ns}.${name}`);
  const tid = (name: string) => `${k.tid}-${name}`;
  const isBusinessUser = kind === 'business' && form.values.role === 'BusinessUser';

  let sections: ReactNode = null;
  if (kind === 'global')
    sections = (
      <NativeSelectField
        form={form}
        name="role"
        label={label('role')}
        data={GLOBAL_USER_ROLES.map((r) => ({ value: r, label: t(`admin.users.roles.${r}`) }))}
        disabled={self}
        testId={tid('role')}
      />
    );
  if (kind === 'agency')
    sections = (
      <SelectField
        form={form}
        name="user_type"
        label={label('user_type')}
        data={AGENCY_USER_TYPE_VALUES.map((value) => ({ value, label: t(`agency.users.types.${value}`) }))}
        required
        testId={tid('type')}
      />
    );
  if (kind === 'business')
    sections = (
      <>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <SelectField
            form={form}
            name="role"
            label={label('role')}
            data={BUSINESS_USER_ROLES.map((value) => ({ value, label: t(`business.users.roles.${value}`) }))}
            allowDeselect={false}
            testId={tid('role')}
          />
          {isBusinessUser && (
            <SelectField
              form={form}
              name="user_type"
              label={label('user_type')}
              data={Object.keys(BUSINESS_USER_TYPES).map((value) => ({
                value,
                label: t(`business.users.types.${value}`),
              }))}
              required
              testId={tid('user-type')}
            />
          )}
        </SimpleGrid>
        {isBusinessUser && form.values.user_type === '4' && (
          <MultiSelectField
            form={form}
            name="custom_type_pages"
            label={label('custom_pages')}
            description={label('custom_pages_hint')}
            data={pageOptions}
            required
            searchable
            testId={tid('pages')}
          />
        )}
        <SelectField
          form={form}
          name="agent_type"
          label={label('agent_type')}
          data={['none', ...AGENT_TYPES].map((value) => ({
            value,
            label: t(`business.users.agent_types.${value}`),
          }))}
          allowDeselect={false}
          testId={tid('agent-type')}
        />
        <TextField
          form={form}
          name="phone"
          type="tel"
          autoComplete="tel"
          label={label('phone')}
          description={label('phone_hint')}
          testId={tid('phone')}
        />
      </>
    );

  return (
    <FormShell
      form={form}
      title={t(create ? k.title.add : k.title.edit)}
      back={kind === 'global' ? { label: t('admin.users.back'), to: pathOf(k.list) } : undefined}
      onSubmit={submit}
      width={k.width}
      actions={
        <FormActions
          submitting={calls.saving}
          submitTestId={tid('submit')}
          cancelTo={pathOf(k.list)}
          left={kind === 'agency' && user ? <AgencyResetLink user={user} /> : undefined}
        />
      }
    >
      <NameFields
        form={form}
        labels={[label('first_name'), label('last_name')]}
        testIds={[tid('first-name'), tid('last-name')]}
      />
      <TextField
        name="email"
        label={label('email')}
        type="email"
        required
        autoComplete="off"
        disabled={locked !== null}
        description={locked ?? undefined}
        testId={tid('email')}
      />
      {user && (
        <PendingEmailNotice pending={user.pending_email} current={user.email} testId={tid('pending-email')} />
      )}
      {create && (
        <PasswordPair
          form={form}
          labels={{ password: label('password'), confirmation: label('password_confirmation') }}
          testIds={{ password: tid('password'), confirmation: tid('password-confirmation') }}
        />
      )}
      {sections}
      {!create && (
        <SwitchField
          name="active"
          label={kind === 'business' ? t('business.common.active') : label('active')}
          disabled={kind === 'global' && self}
          testId={tid('active')}
        />
      )}
      {formError && (
        <Alert color="red" data-testid={tid('error')}>
          {formError}
        </Alert>
      )}
    </FormShell>
  );
}

/** An agency user's 'Send password reset link' (beside the form's buttons, as it always was). */
function AgencyResetLink({ user }: { user: AnyUser }) {
  const { t } = useTranslation();
  const reset = useResetAgencyUserPassword();
  // The reason is shown beside the e-mail and in the password panel.
  const locked = useImpersonationLock() !== null;
  return (
    <Button
      variant="light"
      disabled={locked}
      loading={reset.isPending}
      onClick={() => reset.mutate(user.id)}
      data-testid="agency-user-reset-password"
    >
      {t('agency.users.actions.reset_password')}
    </Button>
  );
}

function useChangePassword(kind: UserKind, id: number) {
  const use = {
    global: useChangeGlobalUserPassword,
    agency: useChangeAgencyUserPassword,
    business: useChangeUserPassword,
  }[kind];
  return use(id);
}

/**
 * Another user's password: set it here (a business user may also be e-mailed a reset link). One's own
 * password is changed from the profile (the server refuses it here), so the panel is not shown for it
 * (agency admins are never their own agency users).
 */
function PasswordSection({ kind, user }: { kind: UserKind; user: AnyUser }) {
  const { t } = useTranslation();
  const { user: me } = useAuth();
  const change = useChangePassword(kind, user.id);
  const reset = useSendResetLink();
  const k = KINDS[kind];
  if (me?.id === user.id) return null;
  const locked = credentialsLock(user, me?.id);
  if (locked)
    return (
      <Alert color="gray" data-testid={`${k.tid}-password-locked`}>
        {t(locked)}
      </Alert>
    );

  const confirmReset = () =>
    confirmAction({
      title: t('business.users.reset_link'),
      text: t('business.users.reset_link_confirm', { email: user.email }),
      confirm: t('business.users.send'),
      color: 'brand',
      onConfirm: () => reset.mutate(user.id),
    });

  return (
    <SetPasswordForm
      title={t(`${k.ns}.change_password`)}
      labels={{
        password: t(`${k.ns}.password`),
        confirmation: t(`${k.ns}.password_confirmation`),
        submit: t(`${k.ns}.change_password`),
      }}
      testIds={k.passwordTids}
      schema={kind === 'agency' ? ZChangeAgencyUserPassword : ZChangePasswordRequest}
      onSave={(values) => change.mutateAsync(values)}
      pending={change.isPending}
      extra={
        kind === 'business'
          ? (locked) => (
              <Button
                variant="subtle"
                disabled={locked}
                onClick={confirmReset}
                loading={reset.isPending}
                data-testid="user-reset-link"
              >
                {t('business.users.reset_link')}
              </Button>
            )
          : undefined
      }
    />
  );
}
