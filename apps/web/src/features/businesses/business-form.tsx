import { Button, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  type TBusiness,
  type TCreateBusinessRequest,
  type TUpdateBusinessRequest,
  ZCreateBusinessRequest,
  ZUpdateBusinessRequest,
} from '@stn/contracts/businesses';
import { BUSINESS_CREATE_DEFAULTS } from '@stn/contracts/constants';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { AddBusinessGuard } from '../../components/add-business-gate.tsx';
import { useImpersonationLock } from '../../components/credentials.tsx';
import {
  BoundForm,
  NameFields,
  PasswordField,
  SelectField,
  TextareaField,
  TextField,
} from '../../components/form/fields.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { Loading } from '../../components/load-state.tsx';
import { NoInstallsModal } from '../../components/no-installs-modal.tsx';
import { usePlanOptions } from '../../components/plan-options.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useAuth } from '../../lib/auth-store.ts';
import { issueText } from '../../lib/i18n.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { useAgencyOptions } from '../../lib/pickers.ts';
import { useSite } from '../../lib/site.ts';
import { useRouteName } from '../../lib/use-route-name.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useBusiness, useCreateBusiness, useUpdateBusiness } from './api/businesses.ts';
import { businessArea, businessListRoute } from './area.ts';
import { CarrierAccountCard } from './carrier-account-card.tsx';

/** A number field as Mantine keeps it: '' while empty. */
type Num = number | string;

const SWITCHES = [
  'is_on_trial',
  'free_fee',
  'caller_id_enabled',
  'custom_number_enabled',
  'form_enabled',
  'dep_enabled',
  'sendgrid_enabled',
  'ai_enabled',
  'has_sales_user_extension',
] as const;
type SwitchName = (typeof SWITCHES)[number];

const LIMITS = [
  'number_of_users',
  'number_of_installs',
  'calls',
  'messages',
  'number_of_automations',
] as const;
type LimitName = (typeof LIMITS)[number];

type Values = {
  /** The admin area's add form only: the agency the business joins. */
  agency_id: string | null;
  name: string;
  widget_type: string;
  subscription_plan_id: string | null;
  opt_out_msg: string;
  owner: { email: string; first_name: string; last_name: string; password: string };
} & Record<LimitName, Num> &
  Record<SwitchName, boolean>;

const FIELDS = [
  'agency_id',
  'name',
  'widget_type',
  'subscription_plan_id',
  'opt_out_msg',
  ...LIMITS,
  ...SWITCHES,
  'owner.email',
  'owner.first_name',
  'owner.last_name',
  'owner.password',
] as const;

// Spec 001 §9: 1 user, 1 install, 200 calls, 2000 messages, 2 automations, widget_type 3 (both).
const DEFAULTS: Values = {
  agency_id: null,
  name: '',
  widget_type: String(BUSINESS_CREATE_DEFAULTS.widget_type),
  subscription_plan_id: null,
  opt_out_msg: '',
  number_of_users: BUSINESS_CREATE_DEFAULTS.number_of_users,
  number_of_installs: BUSINESS_CREATE_DEFAULTS.number_of_installs,
  calls: BUSINESS_CREATE_DEFAULTS.calls,
  messages: BUSINESS_CREATE_DEFAULTS.messages,
  number_of_automations: BUSINESS_CREATE_DEFAULTS.number_of_automations,
  is_on_trial: false,
  free_fee: false,
  caller_id_enabled: false,
  custom_number_enabled: false,
  form_enabled: false,
  dep_enabled: false,
  sendgrid_enabled: false,
  ai_enabled: false,
  has_sales_user_extension: false,
  owner: { email: '', first_name: '', last_name: '', password: '' },
};

function valuesOf(b: TBusiness): Values {
  return {
    ...DEFAULTS,
    name: b.name,
    widget_type: String(b.widget_type),
    subscription_plan_id: b.subscription_plan_id ? String(b.subscription_plan_id) : null,
    opt_out_msg: b.opt_out_msg ?? '',
    number_of_users: b.number_of_users,
    number_of_installs: b.number_of_installs,
    calls: b.calls,
    messages: b.messages,
    number_of_automations: b.number_of_automations,
    ...Object.fromEntries(SWITCHES.map((s) => [s, b[s]])),
    owner: {
      email: b.owner?.email ?? '',
      first_name: b.owner?.first_name ?? '',
      last_name: b.owner?.last_name ?? '',
      password: '',
    },
  };
}

/** An empty number field is sent as null so that it reads 'The {name} field is required', not a default. */
const num = (v: Num) => (v === '' ? null : Number(v));

function fieldsOf(v: Values) {
  return {
    name: v.name,
    widget_type: Number(v.widget_type),
    subscription_plan_id: v.subscription_plan_id ? Number(v.subscription_plan_id) : null,
    opt_out_msg: v.opt_out_msg.trim() || null,
    ...Object.fromEntries(LIMITS.map((l) => [l, num(v[l])])),
    ...Object.fromEntries(SWITCHES.map((s) => [s, v[s]])),
  };
}

const createRequestOf = (v: Values) => ({
  ...fieldsOf(v),
  ...(v.agency_id ? { agency_id: Number(v.agency_id) } : {}),
  owner: {
    email: v.owner.email,
    first_name: v.owner.first_name,
    last_name: v.owner.last_name,
    ...(v.owner.password ? { password: v.owner.password } : {}),
  },
});

const updateRequestOf = (v: Values) => ({
  ...fieldsOf(v),
  owner: { email: v.owner.email, first_name: v.owner.first_name, last_name: v.owner.last_name },
});

const resolveCreate = zodResolver(ZCreateBusinessRequest);
const resolveUpdate = zodResolver(ZUpdateBusinessRequest);

/**
 * Add or edit a business account with its owner (spec 000 §2 agency business/add, edit/:id, and the
 * admin's business/add, edit/:id, where the admin picks the agency; ADR 053).
 */
export default function BusinessForm() {
  const { t } = useTranslation();
  const id = Number(useParams().id ?? 0);
  const navigate = useNavigate();
  const area = businessArea(useRouteName());
  const business = useBusiness(id);
  const { user } = useAuth();
  if (!id) {
    // Out of installs, 'No Installs Available' shows instead of the form, whichever link led here.
    return (
      <AddBusinessGuard onLeave={() => navigate(pathOf(businessListRoute(area)))}>
        <BusinessFormBody />
      </AddBusinessGuard>
    );
  }
  if (business.isPending) return <Loading />;
  if (!business.data) return <Text c="red">{t('agency.common.load_failed')}</Text>;
  return (
    <>
      <BusinessFormBody key={business.data.id} business={business.data} />
      {/* The business's own carrier account (ADR 093), set by its agency's admin: a platform admin's call of
          the same route names an agency, so the admin area does not show the card. */}
      {area === 'agency' && userCan(user, 'telephony.configure') && (
        <Stack maw={900} mt="md">
          <CarrierAccountCard business={business.data} />
        </Stack>
      )}
    </>
  );
}

function BusinessFormBody({ business }: { business?: TBusiness }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const site = useSite();
  const area = businessArea(useRouteName());
  const admin = area === 'admin';
  const create = useCreateBusiness();
  const update = useUpdateBusiness(business?.id ?? 0);
  const agencies = useAgencyOptions(admin && !business);
  const [noInstalls, setNoInstalls] = useState(false);
  const editing = business !== undefined;
  const form = useForm<Values>({
    initialValues: business ? valuesOf(business) : DEFAULTS,
    validate: (v) => {
      if (editing) return resolveUpdate(updateRequestOf(v));
      const errors = resolveCreate(createRequestOf(v));
      // An admin adds a business to an agency it names (the server asks the same).
      return admin && !v.agency_id
        ? { agency_id: issueText('validation.required', ['agency_id']), ...errors }
        : errors;
    },
  });
  // The plans are the business's agency's: the admin's pick while adding.
  const agencyId = business?.agency_id ?? (admin ? Number(form.values.agency_id ?? 0) : user?.agency?.id);
  const planOptions = usePlanOptions(agencyId ?? 0);

  const onError = (err: unknown) => {
    // 'No Installs Available' (spec 000 §8) is the server's only 422 on number_of_installs: the form already
    // checked the field's shape with the same schema, so what is left is the agency's available installs.
    if (err instanceof ApiError && err.code === 'VALIDATION' && err.field('number_of_installs')) {
      setNoInstalls(true);
    }
    applyServerErrors(form, err, FIELDS);
  };
  const toList = () => navigate(pathOf(businessListRoute(area)));

  const submit = form.onSubmit((values) => {
    if (editing) {
      update.mutate(updateRequestOf(values) as TUpdateBusinessRequest, { onSuccess: toList, onError });
    } else {
      create.mutate(createRequestOf(values) as TCreateBusinessRequest, { onSuccess: toList, onError });
    }
  });

  const widgetTypes = ['1', '2', '3'].map((value) => ({
    value,
    label: t(`agency.business.widget_types.${value}`),
  }));
  const readOnly = !userCan(user, 'businesses.manage');
  // The owner's address is an account's key: not changed while acting as another user (ADR 050).
  const impersonationLock = useImpersonationLock();
  const ownerLock = editing ? impersonationLock : null;

  return (
    <BoundForm form={form} onSubmit={submit}>
      <Stack maw={900}>
        <Title order={2} data-testid="page-title">
          {editing ? t('menu.business_edit') : t('menu.business_add')}
        </Title>

        <FormSection title={t('agency.business.form.details')}>
          {admin && !editing && (
            <Select
              label={t('agency.business.agency')}
              placeholder={t('agency.business.form.pick_agency')}
              data={agencies.data ?? []}
              searchable
              required
              {...form.getInputProps('agency_id')}
              // Another agency has other plans: the plan picked for the last one goes.
              onChange={(v) => {
                form.setFieldValue('agency_id', v);
                form.setFieldValue('subscription_plan_id', null);
              }}
              data-testid="business-form-agency"
            />
          )}
          {admin && business && (
            <Text size="sm" data-testid="business-form-agency-name">
              {t('agency.business.agency')}: <b>{business.agency_name}</b>
            </Text>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField name="name" label={t('agency.business.name')} required testId="business-form-name" />
            <SelectField
              name="widget_type"
              label={t('agency.business.form.widget_type')}
              data={widgetTypes}
              allowDeselect={false}
              required
              testId="business-form-widget-type"
            />
          </SimpleGrid>
          <SelectField
            name="subscription_plan_id"
            label={t('agency.business.form.plan')}
            placeholder={t('agency.business.form.no_plan')}
            data={planOptions}
            clearable
            testId="business-form-plan"
          />
          <TextareaField
            name="opt_out_msg"
            label={t('agency.business.form.opt_out_msg')}
            testId="business-form-opt-out"
          />
        </FormSection>

        <FormSection title={t('agency.business.form.limits')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {LIMITS.map((l) => (
              <NumberInput
                key={l}
                label={t(`agency.business.form.${l}`)}
                min={0}
                allowDecimal={false}
                required
                data-testid={`business-form-${l}`}
                {...form.getInputProps(l)}
              />
            ))}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {SWITCHES.map((s) => (
              <Switch
                key={s}
                label={t(`agency.business.form.${s}`)}
                data-testid={`business-form-${s}`}
                {...form.getInputProps(s, { type: 'checkbox' })}
              />
            ))}
          </SimpleGrid>
        </FormSection>

        <FormSection title={t('agency.business.form.owner')}>
          <TextField
            name="owner.email"
            label={t('agency.business.form.owner_email')}
            type="email"
            autoComplete="off"
            required
            disabled={ownerLock !== null}
            description={ownerLock ?? undefined}
            testId="business-form-owner-email"
          />
          <NameFields
            form={form}
            names={['owner.first_name', 'owner.last_name']}
            labels={[t('agency.business.form.owner_first_name'), t('agency.business.form.owner_last_name')]}
            testIds={['business-form-owner-first-name', 'business-form-owner-last-name']}
          />
          {!editing && (
            <PasswordField
              name="owner.password"
              label={t('agency.business.form.owner_password')}
              description={t('agency.business.form.owner_password_hint')}
              testId="business-form-owner-password"
            />
          )}
        </FormSection>

        <Group justify="flex-end">
          <Button variant="default" onClick={toList} data-testid="business-form-cancel">
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            disabled={readOnly}
            loading={create.isPending || update.isPending}
            data-testid="business-form-submit"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
      <NoInstallsModal
        opened={noInstalls}
        onClose={() => setNoInstalls(false)}
        supportEmail={site.data?.supportEmail}
      />
    </BoundForm>
  );
}
