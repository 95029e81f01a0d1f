import { Badge, Button, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TAgency } from '@stn/contracts/agencies';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, DataTable, useSelection } from '../../components/list/data-table.tsx';
import { ListHeader } from '../../components/list/list-header.tsx';
import { RouteTabs } from '../../components/route-tabs.tsx';
import { pathOf } from '../../lib/nav/route-table.ts';
import { keys } from '../../lib/query-keys.ts';
import {
  AGENCIES_PATH,
  type AgencyAction,
  type AgencyStatus,
  downloadAgencyCsv,
  type ExportKind,
  useAgencyAction,
} from './api/agencies.ts';

/** The list's tabs, each a route. */
const AGENCY_TABS = { active: 'admin.agency.accounts', archived: 'admin.agency.archived' };

/** The host an agency's site answers on: its custom domain, or its white-label host. */
export function agencyHost(a: TAgency): string {
  return a.domain ?? a.whitelabel?.domain ?? a.subdomain ?? '';
}

/**
 * Agency accounts (spec 000 §2 admin agency/accounts and agency/archived): the active or archived list,
 * single and bulk archive, restore and permanent delete, and the CSV exports of an agency.
 */
export function AgencyList({ status }: { status: AgencyStatus }) {
  const { t } = useTranslation();
  const action = useAgencyAction();
  const selection = useSelection();
  const selected = selection.selected;

  const confirm = (kind: AgencyAction, ids: number[], name?: string) => {
    const key = ids.length === 1 ? kind : `bulk_${kind}`;
    modals.openConfirmModal({
      title: t(`admin.agencies.confirm.${key}_title`),
      children: <Text size="sm">{t(`admin.agencies.confirm.${key}_text`, { name, count: ids.length })}</Text>,
      labels: { confirm: t(`admin.agencies.actions.${kind}`), cancel: t('common.cancel') },
      confirmProps: { color: kind === 'restore' ? 'brand' : 'red', 'data-testid': 'confirm-ok' },
      onConfirm: () => action.mutate({ action: kind, ids }, { onSuccess: () => selection.drop(ids) }),
    });
  };

  const exportCsv = (kind: ExportKind, id: number) => {
    void downloadAgencyCsv(kind, id).catch(() => undefined);
  };

  const columns: Column<TAgency>[] = [
    { key: 'name', title: t('admin.agencies.name'), render: (a) => <Text fw={500}>{a.name}</Text> },
    { key: 'domain', title: t('admin.agencies.domain'), render: (a) => agencyHost(a) || '—' },
    { key: 'email', title: t('admin.agencies.email'), render: (a) => a.email ?? a.user?.email ?? '—' },
    {
      key: 'active',
      title: t('admin.agencies.active'),
      render: (a) =>
        a.active ? (
          <Badge color="green">{t('admin.common.yes')}</Badge>
        ) : (
          <Badge color="gray">{t('admin.common.no')}</Badge>
        ),
    },
  ];

  const rowActions = (a: TAgency) => (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      {status === 'active' ? (
        <>
          <Button
            size="xs"
            variant="light"
            component={Link}
            to={pathOf('admin.agency.edit', { id: a.id })}
            data-testid={`agency-edit-${a.id}`}
          >
            {t('admin.agencies.actions.edit')}
          </Button>
          {!a.is_main && (
            <Button
              size="xs"
              variant="light"
              color="red"
              onClick={() => confirm('archive', [a.id], a.name)}
              data-testid={`agency-archive-${a.id}`}
            >
              {t('admin.agencies.actions.archive')}
            </Button>
          )}
        </>
      ) : (
        <>
          <Button
            size="xs"
            variant="light"
            onClick={() => confirm('restore', [a.id], a.name)}
            data-testid={`agency-restore-${a.id}`}
          >
            {t('admin.agencies.actions.restore')}
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            onClick={() => confirm('delete', [a.id], a.name)}
            data-testid={`agency-delete-${a.id}`}
          >
            {t('admin.agencies.actions.delete')}
          </Button>
        </>
      )}
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="subtle" data-testid={`agency-export-${a.id}`}>
            {t('admin.agencies.actions.export')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => exportCsv('users', a.id)} data-testid={`agency-export-users-${a.id}`}>
            {t('admin.agencies.actions.export_users')}
          </Menu.Item>
          <Menu.Item
            onClick={() => exportCsv('businesses', a.id)}
            data-testid={`agency-export-businesses-${a.id}`}
          >
            {t('admin.agencies.actions.export_businesses')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );

  return (
    <Stack>
      <ListHeader
        title={t(status === 'active' ? 'menu.agency_accounts' : 'menu.agency_archived')}
        add={{ label: t('menu.agency_add'), to: pathOf('admin.agency.add'), testId: 'agency-add' }}
      />
      <RouteTabs value={status} routes={AGENCY_TABS} testId="agency-tab" labels="admin.agencies.tabs" />
      <Paper withBorder p="md" radius="md">
        {selected.length > 0 && (
          <Group mb="sm" gap="xs">
            <Text size="sm" c="dimmed" data-testid="agency-selected-count">
              {t('admin.agencies.selected', { count: selected.length })}
            </Text>
            <Button size="xs" variant="subtle" onClick={selection.clear}>
              {t('admin.agencies.clear_selection')}
            </Button>
            {status === 'active' ? (
              <Button
                size="xs"
                color="red"
                variant="light"
                onClick={() => confirm('archive', selected)}
                data-testid="agency-bulk-archive"
              >
                {t('admin.agencies.actions.archive')}
              </Button>
            ) : (
              <>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => confirm('restore', selected)}
                  data-testid="agency-bulk-restore"
                >
                  {t('admin.agencies.actions.restore')}
                </Button>
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  onClick={() => confirm('delete', selected)}
                  data-testid="agency-bulk-delete"
                >
                  {t('admin.agencies.actions.delete')}
                </Button>
              </>
            )}
          </Group>
        )}
        <DataTable<TAgency>
          path={AGENCIES_PATH}
          queryKey={keys.agencies.list(status)}
          filters={{ status }}
          columns={columns}
          actions={rowActions}
          selection={{
            ...selection,
            disabled: (a) => a.is_main,
            label: (a) => t('admin.agencies.select', { name: a.name }),
            testId: (a) => `agency-select-${a.id}`,
          }}
          testId="agency-table"
        />
      </Paper>
    </Stack>
  );
}
