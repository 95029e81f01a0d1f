import { Alert, Anchor, Button, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { TCampaignRegistration } from '@stn/contracts/registration';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormSection } from '../../components/form/form-section.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { useCampaign, useProfiles, useSyncCampaign } from './api/registration.ts';
import { CampaignForm } from './campaign-form.tsx';
import { NumbersTable } from './numbers-table.tsx';
import { CarrierStatusBadge, RegistrationStateBadge } from './registration-parts.tsx';

// The agency's A2P 10DLC registration (route agency.sms-registration, ADR 092): without one, the brand and
// campaign form; with one, its status as the carrier last told it (Refresh status asks again), the reasons of
// a failure with their codes, and the numbers it covers. A failed registration is fixed in the same form,
// filled in from what was sent, and submitted again.

function Field({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <div data-testid={testId}>{children}</div>
    </div>
  );
}

function StatusPanel({ reg, onFix }: { reg: TCampaignRegistration; onFix: () => void }) {
  const { t } = useTranslation();
  const sync = useSyncCampaign();
  const failures = [
    ...reg.brand.reasons.map((reason) => ({ code: null as number | null, reason, of: 'brand' })),
    ...reg.campaign.failures.map((f) => ({ ...f, of: 'campaign' })),
  ];
  return (
    <FormSection title={t('registration.campaign.status_title')} testId="campaign-status">
      <Group justify="space-between">
        <RegistrationStateBadge state={reg.status} testId="campaign-state" />
        <Button
          variant="light"
          onClick={() => sync.mutate()}
          loading={sync.isPending}
          data-testid="campaign-refresh"
        >
          {t('registration.campaign.refresh')}
        </Button>
      </Group>
      <Text size="sm" data-testid="campaign-state-text">
        {t(`registration.campaign.state_text.${reg.status.replace(/-/g, '_')}`)}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Field label={t('registration.campaign.brand_status')}>
          <CarrierStatusBadge status={reg.brand.status} testId="campaign-brand-status" />
        </Field>
        <Field label={t('registration.campaign.campaign_status')}>
          <CarrierStatusBadge status={reg.campaign.status} testId="campaign-campaign-status" />
        </Field>
        <Field label={t('registration.campaign.throughput')} testId="campaign-throughput">
          {reg.status === 'approved' && reg.campaign.throughput_mps !== null
            ? t('registration.campaign.mps', { count: reg.campaign.throughput_mps })
            : '—'}
        </Field>
        <Field label={t('registration.fields.use_case')}>
          {t(`registration.use_cases.${reg.campaign.use_case.toLowerCase()}`)}
        </Field>
        <Field label={t('registration.campaign.campaign_id')}>{reg.campaign.campaign_id ?? '—'}</Field>
        <Field label={t('registration.campaign.synced_at')}>
          {reg.synced_at ? new Date(reg.synced_at).toLocaleString() : '—'}
        </Field>
      </SimpleGrid>
      {reg.status === 'failed' && (
        <Alert color="red" title={t('registration.campaign.failed_title')} data-testid="campaign-failures">
          <Stack gap="sm">
            {failures.length > 0 ? (
              <List size="sm" spacing={4}>
                {failures.map((f) => (
                  <List.Item key={`${f.of}-${f.code}-${f.reason}`} data-testid="campaign-failure">
                    <Text span fw={600} size="sm">
                      {t(`registration.campaign.failure_of_${f.of}`)}
                      {f.code !== null ? ` (${f.code})` : ''}
                    </Text>
                    {`: ${f.reason}`}
                  </List.Item>
                ))}
              </List>
            ) : (
              <Text size="sm">{t('registration.campaign.failed_no_reason')}</Text>
            )}
            <Group>
              <Button color="red" variant="filled" onClick={onFix} data-testid="campaign-fix">
                {t('registration.campaign.fix')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
    </FormSection>
  );
}

export default function SmsRegistrationPage() {
  const { t } = useTranslation();
  const campaign = useCampaign();
  const profiles = useProfiles();
  const [fixing, setFixing] = useState(false);
  const data = campaign.data;
  const reg = data?.registration ?? null;

  const body = () => {
    if (campaign.isError) return <LoadFailed message={campaign.error.message} testId="campaign-load-error" />;
    if (profiles.isError) return <LoadFailed message={profiles.error.message} testId="profiles-load-error" />;
    if (!data || !profiles.data) return <Loading />;
    const form = (registration: TCampaignRegistration | null) => (
      <CampaignForm
        key={registration ? `fix-${registration.id}-${registration.updated_at}` : 'new'}
        profiles={profiles.data}
        registration={registration}
        onDone={() => setFixing(false)}
        {...(registration ? { onCancel: () => setFixing(false) } : {})}
      />
    );
    return (
      <>
        {!data.required && (
          <Alert color="gray" data-testid="campaign-not-required">
            {t('registration.campaign.not_required')}
          </Alert>
        )}
        {reg ? (
          <>
            <StatusPanel reg={reg} onFix={() => setFixing(true)} />
            {fixing && reg.status === 'failed' && (
              <>
                <Title order={3}>{t('registration.campaign.fix_title')}</Title>
                {form(reg)}
              </>
            )}
          </>
        ) : (
          <>
            <Text size="sm" data-testid="campaign-none">
              {t('registration.campaign.none')}{' '}
              <Anchor component={Link} to={pathOf('agency.twilioProfile')}>
                {t('registration.campaign.profiles_link')}
              </Anchor>
            </Text>
            {form(null)}
          </>
        )}
        <FormSection
          title={t('registration.numbers.title')}
          hint={t('registration.numbers.hint')}
          testId="campaign-numbers"
        >
          <NumbersTable numbers={data.numbers} showBusiness />
        </FormSection>
      </>
    );
  };

  return (
    <Stack maw={1000}>
      <div>
        <Title order={2} data-testid="page-title">
          {t('registration.campaign.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('registration.campaign.intro')}
        </Text>
      </div>
      {body()}
    </Stack>
  );
}
