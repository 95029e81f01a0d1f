import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  List,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  AGENCY_FLAGS,
  type TAgency,
  type TAgencyFlag,
  type TCreateAgencyRequest,
  type TUpdateAgencyRequest,
  WHITELABEL_TYPES,
  ZCreateAgencyRequest,
  ZUpdateAgencyRequest,
} from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useImpersonationLock } from '../../components/credentials.tsx';
import {
  BoundForm,
  NameFields,
  NumberField,
  PasswordField,
  TextField,
} from '../../components/form/fields.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { applyServerErrors, zodResolver } from '../../lib/zod-form.ts';
import { useCreateAgency, useUpdateAgency } from './api/agencies.ts';

type WhitelabelType = (typeof WHITELABEL_TYPES)[number];

export type AgencyFormValues = {
  name: string;
  email: string;
  properties: { installs: number | string };
  user: { email: string; firstName: string; lastName: string; password: string };
  whitelabel: { domain: string; type: WhitelabelType };
  twilioConfig: { accountSid: string; authToken: string };
} & Record<TAgencyFlag, boolean>;

/** Fields a 422 may name, shown next to them (spec 000 §3 create form groups). */
const FIELDS = [
  'name',
  'email',
  'properties.installs',
  'user.email',
  'user.firstName',
  'user.lastName',
  'user.password',
  'whitelabel.domain',
  'whitelabel.type',
  'twilioConfig.accountSid',
  'twilioConfig.authToken',
  ...AGENCY_FLAGS,
];

function valuesOf(agency?: TAgency): AgencyFormValues {
  const flags = Object.fromEntries(AGENCY_FLAGS.map((f) => [f, agency?.[f] ?? false])) as Record<
    TAgencyFlag,
    boolean
  >;
  const wl = agency?.whitelabel;
  const type: WhitelabelType = wl?.type ?? (agency?.subdomain ? 'subdomain' : 'domain');
  const installs = agency?.properties.installs;
  return {
    name: agency?.name ?? '',
    email: agency?.email ?? '',
    properties: { installs: typeof installs === 'number' ? installs : '' },
    user: {
      email: agency?.user?.email ?? '',
      firstName: agency?.user?.first_name ?? '',
      lastName: agency?.user?.last_name ?? '',
      password: '',
    },
    // A subdomain is typed as its label only; the server adds the main domain.
    whitelabel: {
      domain: (type === 'subdomain' ? agency?.subdomain : (agency?.domain ?? wl?.domain)) ?? '',
      type,
    },
    twilioConfig: { accountSid: '', authToken: '' },
    ...flags,
  };
}

/** The request body: empty optional fields left out, the telephony account only when typed. */
function requestOf(v: AgencyFormValues, editing: boolean) {
  const flags = Object.fromEntries(AGENCY_FLAGS.map((f) => [f, v[f]]));
  const installs = v.properties.installs === '' ? undefined : Number(v.properties.installs);
  const twilio =
    v.twilioConfig.accountSid.trim() || v.twilioConfig.authToken.trim()
      ? { accountSid: v.twilioConfig.accountSid, authToken: v.twilioConfig.authToken }
      : undefined;
  const user = editing
    ? { email: v.user.email, firstName: v.user.firstName, lastName: v.user.lastName }
    : v.user;
  return {
    name: v.name,
    email: v.email.trim() ? v.email : null,
    ...(installs === undefined ? {} : { properties: { installs } }),
    user,
    // Editing an agency without a white-label host leaves it without one.
    ...(editing && !v.whitelabel.domain.trim() ? {} : { whitelabel: v.whitelabel }),
    ...(twilio ? { twilioConfig: twilio } : {}),
    ...flags,
  };
}

const resolveCreate = zodResolver(ZCreateAgencyRequest);
const resolveUpdate = zodResolver(ZUpdateAgencyRequest);

/**
 * The agency create form of spec 000 §3 (agency, its user, the white-label domain and the telephony
 * account); editing shows the same fields without the password.
 */
export function AgencyForm({ agency }: { agency?: TAgency }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const editing = agency !== undefined;
  const create = useCreateAgency();
  const update = useUpdateAgency(agency?.id ?? 0);
  // The agency admin's address is an account's key: not changed while acting as another user (ADR 050).
  const impersonationLock = useImpersonationLock();
  const userLock = editing ? impersonationLock : null;
  const form = useForm<AgencyFormValues>({
    initialValues: valuesOf(agency),
    validate: (values) => (editing ? resolveUpdate : resolveCreate)(requestOf(values, editing)),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      if (editing) {
        const res = await update.mutateAsync(requestOf(values, true) as TUpdateAgencyRequest);
        const saved = valuesOf(res.data);
        form.setValues(saved);
        form.resetDirty(saved);
      } else {
        const res = await create.mutateAsync(requestOf(values, false) as TCreateAgencyRequest);
        navigate(pathOf('admin.agency.edit', { id: res.data.id }));
      }
    } catch (err) {
      // A 422 shows next to its fields (the api client toasts the first); what was typed stays.
      applyServerErrors(form, err, FIELDS);
    }
  });

  const type = form.values.whitelabel.type;
  const host = agency?.whitelabel?.domain;
  const port = window.location.port ? `:${window.location.port}` : '';

  return (
    <BoundForm form={form} onSubmit={submit} data-testid="agency-form">
      <Stack maw={860}>
        <FormSection title={t('admin.agency_form.agency_section')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField name="name" label={t('admin.agency_form.name')} required testId="agency-form-name" />
            <TextField
              name="email"
              label={t('admin.agency_form.email')}
              type="email"
              testId="agency-form-email"
            />
          </SimpleGrid>
          <NumberField
            name="properties.installs"
            maw={240}
            label={t('admin.agency_form.installs')}
            description={t('admin.agency_form.installs_hint')}
            min={0}
            allowDecimal={false}
            testId="agency-form-installs"
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            {AGENCY_FLAGS.map((flag) => (
              <Checkbox
                key={flag}
                label={t(`admin.agency_form.flags.${flag}`)}
                data-testid={`agency-form-${flag}`}
                {...form.getInputProps(flag, { type: 'checkbox' })}
              />
            ))}
          </SimpleGrid>
          {/* What a new agency needs before its users get past the guards (spec 000 §4, ADR 023). */}
          <Alert color="blue" variant="light" p="sm" data-testid="agency-form-get-going">
            <Text size="sm" fw={600}>
              {t('admin.agency_form.get_going.title')}
            </Text>
            <List size="sm" mt={4}>
              <List.Item>{t('admin.agency_form.get_going.plan')}</List.Item>
              <List.Item>{t('admin.agency_form.get_going.telephony')}</List.Item>
            </List>
            <Text size="sm" mt={4}>
              {t('admin.agency_form.get_going.held')}
            </Text>
          </Alert>
        </FormSection>

        <FormSection title={t('admin.agency_form.user_section')} hint={t('admin.agency_form.user_hint')}>
          <TextField
            name="user.email"
            label={t('admin.agency_form.user_email')}
            type="email"
            required
            autoComplete="off"
            disabled={userLock !== null}
            description={userLock ?? undefined}
            testId="agency-form-user-email"
          />
          <NameFields
            form={form}
            names={['user.firstName', 'user.lastName']}
            labels={[t('admin.agency_form.first_name'), t('admin.agency_form.last_name')]}
            testIds={['agency-form-first-name', 'agency-form-last-name']}
          />
          {!editing && (
            <PasswordField
              name="user.password"
              label={t('admin.agency_form.password')}
              description={t('admin.agency_form.password_hint')}
              testId="agency-form-password"
            />
          )}
        </FormSection>

        <FormSection title={t('admin.agency_form.whitelabel_section')}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NativeSelect
              label={t('admin.agency_form.domain_type')}
              data={WHITELABEL_TYPES.map((value) => ({
                value,
                label: t(`admin.agency_form.domain_types.${value}`),
              }))}
              data-testid="agency-form-domain-type"
              {...form.getInputProps('whitelabel.type')}
              onChange={(e) => {
                form.setFieldValue('whitelabel.type', e.currentTarget.value as WhitelabelType);
                form.clearFieldError('whitelabel.domain');
              }}
            />
            <TextField
              name="whitelabel.domain"
              style={{ gridColumn: 'span 2' }}
              label={t(
                type === 'subdomain' ? 'admin.agency_form.subdomain' : 'admin.agency_form.custom_domain',
              )}
              description={t(
                type === 'subdomain'
                  ? 'admin.agency_form.subdomain_hint'
                  : 'admin.agency_form.custom_domain_hint',
              )}
              required={!editing}
              placeholder={type === 'subdomain' ? 'acme' : 'app.example.com'}
              testId="agency-form-domain"
            />
          </SimpleGrid>
          {host && (
            <Text size="sm">
              {t('admin.agency_form.site')}{' '}
              <Anchor href={`http://${host}${port}/login`} target="_blank" data-testid="agency-form-site">
                {host}
              </Anchor>
            </Text>
          )}
        </FormSection>

        <FormSection
          title={t('admin.agency_form.twilio_section')}
          hint={
            agency?.twilioConfig.accountSid
              ? t('admin.agency_form.twilio_current', { sid: agency.twilioConfig.accountSid })
              : t('admin.agency_form.twilio_hint')
          }
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextField
              name="twilioConfig.accountSid"
              label={t('admin.agency_form.account_sid')}
              placeholder="AC…"
              autoComplete="off"
              testId="agency-form-account-sid"
            />
            <PasswordField
              name="twilioConfig.authToken"
              label={t('admin.agency_form.auth_token')}
              testId="agency-form-auth-token"
            />
          </SimpleGrid>
        </FormSection>

        <Group justify="flex-end">
          <Button
            type="submit"
            loading={create.isPending || update.isPending}
            data-testid="agency-form-submit"
          >
            {editing ? t('common.save') : t('admin.agency_form.create')}
          </Button>
        </Group>
      </Stack>
    </BoundForm>
  );
}
