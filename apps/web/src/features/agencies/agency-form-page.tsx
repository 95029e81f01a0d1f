import { Alert, Anchor, Badge, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import type { TAgency } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Loading } from '../../components/load-state.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { AgencyForm } from './agency-form.tsx';
import { AgencyImagesPanel } from './agency-images-panel.tsx';
import { AgencyPasswordPanel } from './agency-password-panel.tsx';
import { AgencyPaymentsPanel } from './agency-payments-panel.tsx';
import { AgencySettingsPanel } from './agency-settings-panel.tsx';
import { useAgency, useInstallStats } from './api/agencies.ts';

/** admin.agency.add (the create form) and admin.agency.edit/:id (the form and the agency's settings). */
export default function AgencyFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  if (!id) {
    return (
      <Stack>
        <Header title={t('menu.agency_add')} />
        <AgencyForm />
      </Stack>
    );
  }
  return <EditAgency id={Number(id)} />;
}

function Header({ title, agency }: { title: string; agency?: TAgency }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" align="flex-end">
      <div>
        <Anchor component={Link} to={pathOf('admin.agency.accounts')} size="sm">
          {t('admin.agency_form.back')}
        </Anchor>
        <Title order={2} data-testid="page-title">
          {title}
        </Title>
      </div>
      {agency && (
        <Group gap="xs">
          {agency.status === 'archived' && <Badge color="gray">{t('admin.agencies.tabs.archived')}</Badge>}
          {agency.is_main && <Badge>{t('admin.agency_form.main_agency')}</Badge>}
        </Group>
      )}
    </Group>
  );
}

/** The edit screen's tabs, in order: each names its test id and its label. */
const AGENCY_TABS = ['details', 'settings', 'images', 'password', 'payments'] as const;

function EditAgency({ id }: { id: number }) {
  const { t } = useTranslation();
  const agency = useAgency(id);
  if (agency.isPending) {
    return <Loading />;
  }
  if (!agency.data) {
    return (
      <Stack>
        <Header title={t('menu.agency_edit')} />
        <Alert color="red">{t('admin.agency_form.not_found')}</Alert>
      </Stack>
    );
  }
  const a = agency.data;
  return (
    <Stack>
      <Header title={`${t('menu.agency_edit')}: ${a.name}`} agency={a} />
      <InstallStats id={a.id} />
      {/* Panels stay mounted when another tab is opened, so nothing typed is lost. */}
      <Tabs defaultValue="details" keepMounted>
        <Tabs.List mb="md">
          {AGENCY_TABS.map((tab) => (
            <Tabs.Tab key={tab} value={tab} data-testid={`agency-tab-${tab}`}>
              {t(`admin.agency_form.tabs.${tab}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* Keyed by id so that opening another agency starts from its own values. */}
        <Tabs.Panel value="details">
          <AgencyForm key={a.id} agency={a} />
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <AgencySettingsPanel key={a.id} agency={a} />
        </Tabs.Panel>
        <Tabs.Panel value="images">
          <AgencyImagesPanel agency={a} />
        </Tabs.Panel>
        <Tabs.Panel value="password">
          <AgencyPasswordPanel key={a.id} agency={a} />
        </Tabs.Panel>
        <Tabs.Panel value="payments">
          <AgencyPaymentsPanel key={a.id} agency={a} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** POST /v1/agencies/{id}/install-stats: installs in all and still free for new businesses. */
function InstallStats({ id }: { id: number }) {
  const { t } = useTranslation();
  const stats = useInstallStats(id);
  if (!stats.data) return null;
  return (
    <Text size="sm" c="dimmed" data-testid="agency-install-stats">
      {t('admin.agency_form.install_stats', {
        total: stats.data.total_installs,
        available: stats.data.available_installs,
      })}
    </Text>
  );
}
