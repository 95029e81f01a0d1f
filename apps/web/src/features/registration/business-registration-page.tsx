import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormSection } from '../../components/form/form-section.tsx';
import { LoadFailed, Loading } from '../../components/load-state.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { useCampaign, useInstallNames } from './api/registration.ts';
import { NumbersTable } from './numbers-table.tsx';
import { RegistrationStateBadge } from './registration-parts.tsx';
import { TollfreeCard } from './tollfree-card.tsx';

// The business's SMS registration (route business.sms-registration, ADR 092): what its agency's A2P
// registration means for its texting (read-only: the agency registers), whether each of its numbers may
// text, and the toll-free verification of each install's toll-free number, which the business sends itself.

export default function BusinessRegistrationPage() {
  const { t } = useTranslation();
  const user = useAuth().user;
  const campaign = useCampaign();
  const installs = useInstallNames();
  const data = campaign.data;
  const state = data?.registration?.status ?? 'none';
  const tollfree = (data?.numbers ?? []).filter((n) => n.toll_free && n.install_id !== null);
  const nameOf = (id: number) => installs.data?.find((i) => i.id === id)?.name ?? '';
  const defaults = { name: user?.business?.name ?? '', email: user?.email ?? '' };

  return (
    <Stack maw={1000}>
      <div>
        <Title order={2} data-testid="page-title">
          {t('registration.business.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('registration.business.intro')}
        </Text>
      </div>
      {campaign.isError ? (
        <LoadFailed message={campaign.error.message} testId="campaign-load-error" />
      ) : !data ? (
        <Loading />
      ) : (
        <>
          <FormSection title={t('registration.business.agency_title')} testId="business-registration-status">
            <Group>
              <RegistrationStateBadge state={state} testId="business-registration-state" />
            </Group>
            <Text size="sm" data-testid="business-registration-text">
              {data.required
                ? t(`registration.business.state_text.${state.replace(/-/g, '_')}`)
                : t('registration.business.not_required')}
            </Text>
          </FormSection>
          <FormSection
            title={t('registration.numbers.title')}
            hint={t('registration.business.numbers_hint')}
            testId="business-registration-numbers"
          >
            <NumbersTable numbers={data.numbers} showBusiness={false} />
          </FormSection>
          {tollfree.length === 0 ? (
            <Alert color="gray" data-testid="business-no-tollfree">
              {t('registration.business.no_tollfree')}
            </Alert>
          ) : (
            tollfree.map((n) => (
              <TollfreeCard
                key={n.id}
                installId={n.install_id as number}
                installName={nameOf(n.install_id as number)}
                defaults={defaults}
              />
            ))
          )}
        </>
      )}
    </Stack>
  );
}
