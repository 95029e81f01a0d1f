import { Alert, Anchor, Button, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  JOB_POSITIONS,
  PROFILE_BUSINESS_TYPES,
  PROFILE_INDUSTRIES,
  type TCarrierProfile,
  type TProfileInput,
  ZProfileInput,
} from '@stn/contracts/registration';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { FormProvider, SelectField, TextField } from '../../components/form/fields.tsx';
import { FormSection } from '../../components/form/form-section.tsx';
import { useApiForm } from '../../components/form/use-api-form.ts';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { zodResolver } from '../../lib/zod-form.ts';
import {
  type Evaluation,
  registerProfile,
  saveProfile,
  useProfile,
  validateProfile,
} from './api/registration.ts';
import {
  PROFILE_LOCKED,
  ProblemList,
  ProfileStatusBadge,
  RejectionReasons,
  useOptions,
} from './registration-parts.tsx';

// A carrier customer profile's form (agency.twilioProfile.create / .edit, ADR 092), in the sections the
// carrier asks them: the business, its address, its authorized representative, then the profile's name and
// the e-mail the carrier writes to. Save draft keeps it at the carrier as a draft; Validate says what is
// still missing (at the top, and at the fields it names); Submit for review once nothing is. A profile with
// the carrier (pending or in review) or approved is shown read-only; a rejected one is fixed and resubmitted.

/** The form's values: the request's shape, every field a string while it is typed. */
type Values = {
  friendly_name: string;
  email: string;
  business: { [K in keyof TProfileInput['business']]-?: string };
  address: { [K in keyof TProfileInput['address']]-?: string };
  representative: { [K in keyof TProfileInput['representative']]-?: string };
};

const FIELDS = [
  'friendly_name',
  'email',
  'business.legal_name',
  'business.business_type',
  'business.industry',
  'business.ein',
  'business.website',
  'address.street',
  'address.street_secondary',
  'address.city',
  'address.region',
  'address.postal_code',
  'address.iso_country',
  'representative.first_name',
  'representative.last_name',
  'representative.email',
  'representative.phone',
  'representative.business_title',
  'representative.job_position',
] as const;

const valuesOf = (p: TCarrierProfile | null): Values => ({
  friendly_name: p?.friendly_name ?? '',
  email: p?.email ?? '',
  business: {
    legal_name: p?.business.legal_name ?? '',
    business_type: p?.business.business_type ?? '',
    industry: p?.business.industry ?? '',
    ein: p?.business.ein ?? '',
    website: p?.business.website ?? '',
  },
  address: {
    street: p?.address.street ?? '',
    street_secondary: p?.address.street_secondary ?? '',
    city: p?.address.city ?? '',
    region: p?.address.region ?? '',
    postal_code: p?.address.postal_code ?? '',
    iso_country: p?.address.iso_country ?? 'US',
  },
  representative: {
    first_name: p?.representative.first_name ?? '',
    last_name: p?.representative.last_name ?? '',
    email: p?.representative.email ?? '',
    phone: p?.representative.phone ?? '',
    business_title: p?.representative.business_title ?? '',
    job_position: p?.representative.job_position ?? '',
  },
});

const requestOf = (v: Values, id: number | null): TProfileInput =>
  ({
    ...(id ? { id } : {}),
    friendly_name: v.friendly_name,
    email: v.email.trim(),
    business: { ...v.business, website: v.business.website.trim() },
    address: {
      ...v.address,
      street_secondary: v.address.street_secondary?.trim() ? v.address.street_secondary : undefined,
    },
    representative: v.representative,
  }) as TProfileInput;

const resolve = zodResolver(ZProfileInput);

function ProfileForm({ profile }: { profile: TCarrierProfile | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [evaluation, setEvaluation] = useState<Evaluation | null>(null);
  const [acting, setActing] = useState<'validate' | 'register' | null>(null);
  const locked = profile !== null && PROFILE_LOCKED.includes(profile.status);
  const id = profile?.id ?? null;
  const list = pathOf('agency.twilioProfile');

  const { form, submit, submitting } = useApiForm<Values>({
    initialValues: valuesOf(profile),
    validate: (v) => resolve(requestOf(v, id)),
    fields: FIELDS,
    onSubmit: async (values) => {
      const saved = await saveProfile(requestOf(values, id));
      setEvaluation(null);
      form.resetDirty();
      // A new draft goes on in its own form (Validate and Submit need its id).
      if (!id) navigate(pathOf('agency.twilioProfile.edit', { id: saved.id }), { replace: true });
    },
  });

  /** The problems also at their fields, where the form has one. */
  const showEvaluation = (e: Evaluation) => {
    setEvaluation(e);
    for (const p of e.problems) {
      const path = p.field ? `${p.part}.${p.field}` : p.part;
      if ((FIELDS as readonly string[]).includes(path)) form.setFieldError(path, p.reason);
    }
  };

  const validate = async () => {
    if (!id) return;
    setActing('validate');
    try {
      showEvaluation(await validateProfile(id));
    } catch {
      // Told by the API client.
    } finally {
      setActing(null);
    }
  };

  const register = async () => {
    if (!id) return;
    setActing('register');
    try {
      await registerProfile(id);
      navigate(list);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'VALIDATION')
        await validateProfile(id).then(showEvaluation, () => undefined);
    } finally {
      setActing(null);
    }
  };

  const businessTypes = useOptions('business_types', PROFILE_BUSINESS_TYPES);
  const industries = useOptions('industries', PROFILE_INDUSTRIES);
  const positions = useOptions('job_positions', JOB_POSITIONS);
  const title = !profile
    ? t('registration.profile_form.create_title')
    : locked
      ? t('registration.profile_form.view_title')
      : t('registration.profile_form.edit_title');

  return (
    <FormProvider form={form}>
      <form onSubmit={submit} noValidate>
        <Stack maw={860}>
          <div>
            <Anchor component={Link} to={list} size="sm">
              {t('registration.profile_form.back')}
            </Anchor>
            <Group gap="sm">
              <Title order={2} data-testid="page-title">
                {title}
              </Title>
              {profile && <ProfileStatusBadge status={profile.status} testId="profile-form-status" />}
            </Group>
            <Text size="sm" c="dimmed">
              {t('registration.profile_form.intro')}
            </Text>
          </div>
          {profile && <RejectionReasons profile={profile} />}
          {locked && (
            <Alert color="blue" data-testid="profile-locked">
              {t('registration.profile_form.locked')}
            </Alert>
          )}
          {evaluation &&
            (evaluation.compliant ? (
              <Alert color="green" data-testid="profile-compliant">
                {t('registration.profile_form.compliant')}
              </Alert>
            ) : (
              <ProblemList problems={evaluation.problems} testId="profile-problems" />
            ))}
          <fieldset disabled={locked} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
            <Stack>
              <FormSection title={t('registration.profile_form.business')} testId="profile-section-business">
                <TextField
                  name="business.legal_name"
                  label={t('registration.fields.legal_name')}
                  description={t('registration.profile_form.legal_name_hint')}
                  required
                  testId="profile-legal-name"
                />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <SelectField
                    name="business.business_type"
                    label={t('registration.fields.business_type')}
                    data={businessTypes}
                    required
                    allowDeselect={false}
                    testId="profile-business-type"
                  />
                  <SelectField
                    name="business.industry"
                    label={t('registration.fields.industry')}
                    data={industries}
                    required
                    searchable
                    allowDeselect={false}
                    testId="profile-industry"
                  />
                  <TextField
                    name="business.ein"
                    label={t('registration.fields.ein')}
                    placeholder="12-3456789"
                    required
                    testId="profile-ein"
                  />
                  <TextField
                    name="business.website"
                    label={t('registration.fields.website')}
                    placeholder="https://"
                    required
                    testId="profile-website"
                  />
                </SimpleGrid>
              </FormSection>
              <FormSection title={t('registration.profile_form.address')} testId="profile-section-address">
                <TextField
                  name="address.street"
                  label={t('registration.fields.street')}
                  required
                  testId="profile-street"
                />
                <TextField
                  name="address.street_secondary"
                  label={t('registration.fields.street_secondary')}
                  testId="profile-street2"
                />
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextField
                    name="address.city"
                    label={t('registration.fields.city')}
                    required
                    testId="profile-city"
                  />
                  <TextField
                    name="address.region"
                    label={t('registration.fields.region')}
                    placeholder="CA"
                    required
                    testId="profile-region"
                  />
                  <TextField
                    name="address.postal_code"
                    label={t('registration.fields.postal_code')}
                    required
                    testId="profile-postal-code"
                  />
                  <TextField
                    name="address.iso_country"
                    label={t('registration.fields.iso_country')}
                    description={t('registration.profile_form.country_hint')}
                    maxLength={2}
                    required
                    testId="profile-country"
                  />
                </SimpleGrid>
              </FormSection>
              <FormSection
                title={t('registration.profile_form.representative')}
                hint={t('registration.profile_form.representative_hint')}
                testId="profile-section-representative"
              >
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextField
                    name="representative.first_name"
                    label={t('registration.fields.first_name')}
                    required
                    testId="profile-rep-first-name"
                  />
                  <TextField
                    name="representative.last_name"
                    label={t('registration.fields.last_name')}
                    required
                    testId="profile-rep-last-name"
                  />
                  <TextField
                    name="representative.email"
                    label={t('registration.fields.rep_email')}
                    required
                    testId="profile-rep-email"
                  />
                  <TextField
                    name="representative.phone"
                    label={t('registration.fields.phone')}
                    placeholder="+1 415 555 0100"
                    required
                    testId="profile-rep-phone"
                  />
                  <TextField
                    name="representative.business_title"
                    label={t('registration.fields.business_title')}
                    required
                    testId="profile-rep-title"
                  />
                  <SelectField
                    name="representative.job_position"
                    label={t('registration.fields.job_position')}
                    data={positions}
                    required
                    allowDeselect={false}
                    testId="profile-rep-position"
                  />
                </SimpleGrid>
              </FormSection>
              <FormSection title={t('registration.profile_form.profile')} testId="profile-section-profile">
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextField
                    name="friendly_name"
                    label={t('registration.fields.friendly_name')}
                    description={t('registration.profile_form.friendly_name_hint')}
                    required
                    testId="profile-friendly-name"
                  />
                  <TextField
                    name="email"
                    label={t('registration.fields.notification_email')}
                    description={t('registration.profile_form.email_hint')}
                    required
                    testId="profile-email"
                  />
                </SimpleGrid>
              </FormSection>
            </Stack>
          </fieldset>
          {!locked && (
            <Group justify="flex-end">
              <Button variant="default" component={Link} to={list}>
                {t('common.cancel')}
              </Button>
              {id && (
                <Button
                  variant="light"
                  onClick={() => void validate()}
                  loading={acting === 'validate'}
                  disabled={form.isDirty() || submitting}
                  title={form.isDirty() ? t('registration.profile_form.save_first') : undefined}
                  data-testid="profile-validate"
                >
                  {t('registration.profiles.validate')}
                </Button>
              )}
              <Button type="submit" loading={submitting} data-testid="profile-save">
                {t('registration.profile_form.save_draft')}
              </Button>
              {id && evaluation?.compliant && !form.isDirty() && (
                <Button
                  color="green"
                  onClick={() => void register()}
                  loading={acting === 'register'}
                  data-testid="profile-register"
                >
                  {t('registration.profiles.register')}
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </form>
    </FormProvider>
  );
}

/** agency.twilioProfile.create and agency.twilioProfile.edit. */
export default function ProfileFormPage() {
  const id = Number(useParams().id ?? 0);
  const profile = useProfile(id);
  if (!id) return <ProfileForm key="new" profile={null} />;
  if (profile.isError) return <LoadFailed message={profile.error.message} testId="profile-load-error" />;
  if (!profile.data) return <Loading />;
  return <ProfileForm key={profile.data.id} profile={profile.data} />;
}
