import { Button, Group, Switch, Text, Title } from '@mantine/core';
import type { TInstall, TInstallStatus } from '@stn/contracts/installs';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { confirmAction } from '../../components/list/confirm.tsx';
import { type Column, DataTable } from '../../components/list/data-table.tsx';
import { RowButtons } from '../../components/list/row-actions.tsx';
import { RouteTabs } from '../../components/route-tabs.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { keys } from '../../lib/query-keys.ts';
import { useRouteName } from '../../lib/use-route-name.ts';
import { useAddInstallGate } from './add-install-gate.tsx';
import {
  INSTALLS_PATH,
  type InstallLifecycle,
  statusOfRoute,
  useInstallLifecycle,
  useToggleInstall,
} from './api/installs.ts';
import { EmbedCodeButton } from './embed-code.tsx';

const ROUTE_OF_STATUS: Record<TInstallStatus, string> = {
  active: 'business.installs',
  archived: 'business.installs.archived',
  deleted: 'business.installs.deleted',
};

/**
 * The business's installs (routes business.installs, .archived, .deleted): one list per status as tabs,
 * each row with its number, the active switch (with a confirm), edit, archive / restore / delete and the
 * embed code.
 */
export default function InstallsPage() {
  const { t } = useTranslation();
  const status = statusOfRoute[useRouteName()] ?? 'active';
  const toggle = useToggleInstall();
  const lifecycle = useInstallLifecycle();
  const gate = useAddInstallGate();
  const canLead = userCan(useAuth().user, 'leadForms.use');

  const confirmToggle = (row: TInstall, active: boolean) =>
    confirmAction({
      title: t(active ? 'business.installs.activate_title' : 'business.installs.deactivate_title'),
      text: t(active ? 'business.installs.activate_confirm' : 'business.installs.deactivate_confirm', {
        name: row.name,
      }),
      confirm: t(active ? 'business.installs.activate' : 'business.installs.deactivate'),
      color: active ? 'blue' : 'red',
      onConfirm: () => toggle.mutate({ id: row.id, active }),
    });

  const confirmLifecycle = (row: TInstall, action: InstallLifecycle) =>
    confirmAction({
      title: t(`business.installs.${action}_title`),
      text: t(`business.installs.${action}_confirm`, { name: row.name }),
      confirm: t(`business.installs.${action}`),
      color: action === 'restore' ? 'blue' : 'red',
      onConfirm: () => lifecycle.mutate({ id: row.id, action }),
    });

  const columns: Column<TInstall>[] = [
    {
      key: 'name',
      title: t('business.installs.fields.name'),
      render: (i) => (
        <span data-testid={`install-row-name-${i.id}`}>
          {i.name}
          {i.settings.wizard_step !== null && (
            <Text span size="xs" c="orange" ml="xs">
              {t('business.installs.unfinished')}
            </Text>
          )}
        </span>
      ),
    },
    { key: 'website', title: t('business.installs.fields.website'), render: (i) => i.website },
    {
      key: 'number',
      title: t('business.installs.fields.number'),
      render: (i) => <span data-testid={`install-row-number-${i.id}`}>{i.number ?? '—'}</span>,
    },
  ];
  if (status === 'active')
    columns.push({
      key: 'active',
      title: t('business.common.active'),
      render: (i) => (
        <Switch
          checked={i.active}
          onChange={(e) => confirmToggle(i, e.currentTarget.checked)}
          aria-label={t('business.common.active')}
          data-testid={`install-active-${i.id}`}
        />
      ),
    });

  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={2} data-testid="page-title">
          {t('business.installs.title')}
        </Title>
        <Button onClick={() => void gate.open()} loading={gate.checking} data-testid="installs-add">
          {t('business.installs.add')}
        </Button>
      </Group>
      <RouteTabs
        value={status}
        routes={ROUTE_OF_STATUS}
        testId="installs-tab"
        labels="business.installs.tabs"
        mb="md"
      />
      <DataTable<TInstall>
        key={status}
        path={INSTALLS_PATH}
        queryKey={keys.installs.list(status)}
        filters={{ status }}
        columns={columns}
        empty={t(`business.installs.empty.${status}`)}
        testId={`installs-table-${status}`}
        actions={(i) => (
          <Group gap="xs" wrap="nowrap" justify="flex-end">
            {canLead && status !== 'deleted' && (
              <Button
                size="xs"
                variant="light"
                component={Link}
                to={pathOf('business.installs.forms', { install: i.id })}
                data-testid={`install-forms-${i.id}`}
              >
                {t('business.installs.lead.forms')}
              </Button>
            )}
            {status !== 'deleted' && <EmbedCodeButton installId={i.id} />}
            <RowButtons
              actions={[
                {
                  label: t('business.common.edit'),
                  to: pathOf('business.installs.edit', { id: i.id }),
                  testId: `install-edit-${i.id}`,
                  hidden: status === 'deleted',
                },
                {
                  label: t('business.installs.archive'),
                  onClick: () => confirmLifecycle(i, 'archive'),
                  testId: `install-archive-${i.id}`,
                  hidden: status !== 'active',
                },
                {
                  label: t('business.installs.restore'),
                  onClick: () => confirmLifecycle(i, 'restore'),
                  testId: `install-restore-${i.id}`,
                  hidden: status === 'active',
                },
                {
                  label: t('business.common.delete'),
                  color: 'red',
                  onClick: () => confirmLifecycle(i, 'delete'),
                  testId: `install-delete-${i.id}`,
                  hidden: status === 'deleted',
                },
              ]}
            />
          </Group>
        )}
      />
      {gate.modal}
    </>
  );
}
