import { ActionIcon, Button, Group, Menu, Select, Stack, Switch, Tabs, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { TBusiness } from '@stn/contracts/businesses';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAddBusinessGate } from '../../components/add-business-gate.tsx';
import { useImpersonationLock } from '../../components/credentials.tsx';
import { type Column, DataTable, useSelection } from '../../components/list/data-table.tsx';
import { ActionLabel } from '../../components/list/row-actions.tsx';
import { useAuth } from '../../lib/auth-store.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { useAgencyOptions } from '../../lib/pickers.ts';
import { keys } from '../../lib/query-keys.ts';
import { useRouteName } from '../../lib/use-route-name.ts';
import {
  BUSINESS_LIST_PATH,
  type BusinessStatus,
  type BusinessTransition,
  useBusinessTransition,
  useResetUsage,
  useSetBusinessActive,
} from './api/businesses.ts';
import { businessArea } from './area.ts';
import { ResetPasswordModal } from './business-reset-password-modal.tsx';
import { SendNotificationModal } from './send-notification-modal.tsx';

const TABS: { route: string; status: BusinessStatus; title: string }[] = [
  { route: 'agency.business.accounts', status: 'active', title: 'menu.business_active' },
  { route: 'agency.business.archived', status: 'archived', title: 'menu.business_archived' },
  { route: 'agency.business.deleted', status: 'deleted', title: 'menu.business_deleted' },
];

/** A usage count against its allowance; red once the allowance is reached. */
function Usage({ used, allowed, label }: { used: number; allowed: number; label: string }) {
  return (
    <Text size="sm" c={allowed > 0 && used >= allowed ? 'red' : undefined}>
      {label}: {used} / {allowed}
    </Text>
  );
}

/**
 * Business accounts (spec 000 §2): the agency's (business/accounts, archived, deleted) and the admin's
 * (business, every agency, with an agency filter and column; ADR 053). Status tabs, usage, active switch,
 * archive / restore / delete, reset password, reset usage and send notification.
 */
export default function BusinessList() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useAuth();
  const routeName = useRouteName();
  const area = businessArea(routeName);
  const admin = area === 'admin';
  // The admin area has one route for the list: its status tabs are state, the agency's are routes.
  const [adminStatus, setAdminStatus] = useState<BusinessStatus>('active');
  const [agencyId, setAgencyId] = useState<string | null>(null);
  const agencies = useAgencyOptions(admin);
  const tab = admin
    ? TABS.find((x) => x.status === adminStatus)
    : (TABS.find((x) => x.route === routeName) ?? TABS[0]);
  const status = tab?.status ?? 'active';
  const manage = userCan(user, 'businesses.manage');
  const notify = userCan(user, 'agencySettings.manage');
  const selection = useSelection();
  const selected = selection.selected;
  const transition = useBusinessTransition();
  const setActive = useSetBusinessActive();
  const resetUsage = useResetUsage();
  const addGate = useAddBusinessGate();
  // Neither the owner's password nor a reset link while acting as another user (ADR 050).
  const lock = useImpersonationLock();

  // The Active switch signs every user of the business out or back in: it asks first, as archive does,
  // and the API is called only on confirm (ADR 023).
  const confirm = (kind: BusinessTransition | 'reset_usage' | 'activate' | 'deactivate', b: TBusiness) => {
    modals.openConfirmModal({
      title: t(`agency.business.confirm.${kind}_title`),
      children: <Text size="sm">{t(`agency.business.confirm.${kind}_text`, { name: b.name })}</Text>,
      labels: { confirm: t(`agency.business.actions.${kind}`), cancel: t('common.cancel') },
      confirmProps: {
        color: kind === 'restore' || kind === 'activate' ? 'brand' : 'red',
        'data-testid': 'confirm-ok',
      },
      cancelProps: { 'data-testid': 'confirm-cancel' },
      onConfirm: () => {
        if (kind === 'reset_usage') resetUsage.mutate(b.id);
        else if (kind === 'activate' || kind === 'deactivate')
          setActive.mutate({ id: b.id, active: kind === 'activate' });
        else transition.mutate({ id: b.id, transition: kind }, { onSuccess: () => selection.drop([b.id]) });
      },
    });
  };

  // Forms in modals are rendered here (not with modals.open) so that they sit inside the query client.
  const [resetFor, setResetFor] = useState<TBusiness | null>(null);
  const [notifying, setNotifying] = useState(false);
  const openResetPassword = (b: TBusiness) => setResetFor(b);
  const openSendNotification = () => setNotifying(true);

  const agencyColumn: Column<TBusiness> = {
    key: 'agency',
    title: t('agency.business.agency'),
    render: (b) => (
      <Text size="sm" data-testid="business-agency">
        {b.agency_name}
      </Text>
    ),
  };
  const columns: Column<TBusiness>[] = [
    {
      key: 'name',
      title: t('agency.business.name'),
      render: (b) => (
        <Text fw={500} data-testid="business-name">
          {b.name}
        </Text>
      ),
    },
    ...(admin ? [agencyColumn] : []),
    {
      key: 'owner',
      title: t('agency.business.owner'),
      render: (b) =>
        b.owner ? (
          <div>
            <Text size="sm">{`${b.owner.first_name} ${b.owner.last_name}`.trim()}</Text>
            <Text size="xs" c="dimmed">
              {b.owner.email}
            </Text>
          </div>
        ) : (
          '—'
        ),
    },
    {
      key: 'usage',
      title: t('agency.business.usage'),
      render: (b) => (
        <div>
          <Usage used={b.number_of_calls} allowed={b.calls} label={t('agency.business.calls')} />
          <Usage used={b.number_of_messages} allowed={b.messages} label={t('agency.business.messages')} />
        </div>
      ),
    },
    {
      key: 'active',
      title: t('agency.business.active'),
      render: (b) => (
        <Switch
          checked={b.active}
          disabled={!manage || status === 'deleted' || setActive.isPending}
          onChange={(e) => confirm(e.currentTarget.checked ? 'activate' : 'deactivate', b)}
          aria-label={t('agency.business.active')}
          data-testid={`business-active-${b.id}`}
        />
      ),
    },
  ];

  const actions = (b: TBusiness) => (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          aria-label={t('agency.business.actions.menu', { name: b.name })}
          data-testid={`business-actions-${b.id}`}
        >
          ⋮
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {status !== 'deleted' && (
          <Menu.Item
            onClick={() => navigate(pathOf(`${area}.business.edit`, { id: b.id }))}
            data-testid="business-edit"
          >
            {t('agency.business.actions.edit')}
          </Menu.Item>
        )}
        {status === 'active' && (
          <Menu.Item onClick={() => confirm('archive', b)} data-testid="business-archive">
            {t('agency.business.actions.archive')}
          </Menu.Item>
        )}
        {status !== 'active' && (
          <Menu.Item onClick={() => confirm('restore', b)} data-testid="business-restore">
            {t('agency.business.actions.restore')}
          </Menu.Item>
        )}
        {status !== 'deleted' && (
          <>
            <Menu.Item
              onClick={() => openResetPassword(b)}
              disabled={lock !== null}
              data-testid="business-reset-password"
            >
              <ActionLabel label={t('agency.business.actions.reset_password')} lock={lock} />
            </Menu.Item>
            <Menu.Item onClick={() => confirm('reset_usage', b)} data-testid="business-reset-usage">
              {t('agency.business.actions.reset_usage')}
            </Menu.Item>
            <Menu.Divider />
            <Menu.Item color="red" onClick={() => confirm('delete', b)} data-testid="business-delete">
              {t('agency.business.actions.delete')}
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} data-testid="page-title">
          {t('menu.business_accounts')}
        </Title>
        <Group>
          {notify && status !== 'deleted' && (
            <Button variant="default" onClick={openSendNotification} data-testid="business-send-notification">
              {selected.length > 0
                ? t('agency.business.notification.send_selected', { count: selected.length })
                : t('agency.business.notification.send_all')}
            </Button>
          )}
          {manage && (
            <Button
              onClick={() => void addGate.open(pathOf(`${area}.business.add`))}
              loading={addGate.checking}
              data-testid="business-add"
            >
              {t('menu.business_add')}
            </Button>
          )}
        </Group>
      </Group>
      <Tabs
        value={tab?.route ?? 'agency.business.accounts'}
        onChange={(v) => {
          const next = TABS.find((x) => x.route === v);
          if (!next) return;
          selection.clear();
          if (admin) setAdminStatus(next.status);
          else navigate(pathOf(next.route));
        }}
      >
        <Tabs.List>
          {TABS.map((x) => (
            <Tabs.Tab key={x.route} value={x.route} data-testid={`business-tab-${x.status}`}>
              {t(x.title)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {admin && (
        <Select
          w={280}
          label={t('agency.business.agency')}
          placeholder={t('agency.business.all_agencies')}
          data={agencies.data ?? []}
          value={agencyId}
          onChange={setAgencyId}
          searchable
          clearable
          data-testid="business-agency-filter"
        />
      )}
      <DataTable<TBusiness>
        key={status}
        path={BUSINESS_LIST_PATH}
        queryKey={keys.businesses.list(status)}
        filters={{ status, agency_id: agencyId ? Number(agencyId) : undefined }}
        columns={columns}
        actions={manage ? actions : undefined}
        selection={
          notify && status !== 'deleted'
            ? {
                ...selection,
                label: (b) => t('agency.business.select', { name: b.name }),
                testId: (b) => `business-select-${b.id}`,
              }
            : undefined
        }
        empty={t(`agency.business.empty.${status}`)}
        testId="business-table"
      />
      {addGate.modal}
      <ResetPasswordModal business={resetFor} onClose={() => setResetFor(null)} />
      <SendNotificationModal
        opened={notifying}
        businessIds={selected}
        onClose={() => setNotifying(false)}
        onSent={() => selection.clear()}
      />
    </Stack>
  );
}
