import { ActionIcon, Anchor, Badge, Burger, Button, Group, Image, Stack, Text, Tooltip } from '@mantine/core';
import type { TUser } from '@stn/contracts/profile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAddBusinessGate } from '../../components/add-business-gate.tsx';
import { canAddBusiness, dashboardLink } from '../../lib/nav/guards.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { userCan } from '../../lib/nav/user-can.ts';
import { useSite } from '../../lib/site.ts';
import { canImpersonate, type Usage, usageOf, usageText } from './layout-rules.ts';
import { ProfileMenu } from './profile-menu.tsx';

type Props = {
  user: TUser;
  siteTitle: string;
  tenant: string;
  logo: string | null;
  impersonating: boolean;
  sidebarOpened: boolean;
  onToggleSidebar: () => void;
  onToggleImpersonation: () => void;
  onStopImpersonation: () => void;
  onLogout: () => void;
};

function UsageCounter({ label, usage, testId }: { label: string; usage: Usage; testId: string }) {
  return (
    <Text size="sm" data-testid={testId} data-level={usage.level} style={{ whiteSpace: 'nowrap' }}>
      <Text span c="dimmed" size="sm">
        {label}:{' '}
      </Text>
      <Text span fw={600} size="sm" c={usage.level === 'limit' ? 'red' : undefined}>
        {usageText(usage)}
      </Text>
    </Text>
  );
}

/**
 * The business's usage counters (calls and messages against the plan). In the top bar from 'sm' up; on a
 * phone they move to the top of the sidebar drawer, one tap on the burger away (`place` 'drawer').
 */
export function UsageCounters({ user, place }: { user: TUser; place: 'bar' | 'drawer' }) {
  const { t } = useTranslation();
  const business = user.role_group === 'Business' ? user.business : null;
  if (!business) return null;
  const prefix = place === 'drawer' ? 'drawer-' : '';
  const counters = [
    <UsageCounter
      key="calls"
      label={t('layout.calls')}
      usage={usageOf(business.number_of_calls, business.calls)}
      testId={`${prefix}calls-usage`}
    />,
    <UsageCounter
      key="messages"
      label={t('layout.messages')}
      usage={usageOf(business.number_of_messages, business.messages)}
      testId={`${prefix}messages-usage`}
    />,
  ];
  return place === 'bar' ? (
    <Group gap="md" wrap="nowrap" visibleFrom="sm">
      {counters}
    </Group>
  ) : (
    <Stack
      gap={4}
      p="sm"
      hiddenFrom="sm"
      data-testid="drawer-usage"
      style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
    >
      {counters}
    </Stack>
  );
}

/**
 * Top bar of spec 000 §2: tenant name (dashboard link), business usage and trial tag, Add Agency / Add
 * Business, the impersonation toggle, Main Account, the profile dropdown and a logout button.
 */
export function TopBar(props: Props) {
  const { user, impersonating } = props;
  const { t } = useTranslation();
  const { data: site } = useSite();
  const business = user.role_group === 'Business' ? user.business : null;

  // 'Add Business': agencies allowed to add businesses (spec §4). The installs part of the rule is asked on
  // click instead of hiding the button (components/add-business-gate.tsx), so an agency out of installs
  // sees the 'No Installs Available' modal (spec §8) before the form opens.
  // Admins add a business to an agency they pick, in the admin area (ADR 053).
  const showAddBusiness =
    (user.role_group === 'Agency' || user.role_group === 'Admin') &&
    userCan(user, 'businesses.manage') &&
    canAddBusiness(user, Number.POSITIVE_INFINITY);
  const addBusinessRoute = user.role_group === 'Admin' ? 'admin.business.add' : 'agency.business.add';
  const addGate = useAddBusinessGate();

  return (
    // Phones (ADR 023): the left part takes what is left and truncates the name; the right part never
    // shrinks under it; the logo is capped so it cannot push over the buttons; the usage counters move to
    // the sidebar drawer and the logout button to the profile menu (which has it).
    <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" miw={0} style={{ flex: 1 }}>
        <Burger
          opened={props.sidebarOpened}
          onClick={props.onToggleSidebar}
          size="sm"
          aria-label={t('layout.toggle_sidebar')}
          data-testid="sidebar-toggle"
        />
        <Anchor
          component={Link}
          to={dashboardLink(user)}
          underline="never"
          c="inherit"
          data-testid="dashboard-link"
          miw={0}
          style={{ flex: 1 }}
        >
          <Group gap="xs" wrap="nowrap" miw={0}>
            {props.logo && (
              <Image
                src={props.logo}
                alt={props.siteTitle}
                h={32}
                w="auto"
                maw={{ base: 56, sm: 200 }}
                fit="contain"
                style={{ flexShrink: 0 }}
                data-testid="header-logo"
              />
            )}
            <Text fw={700} fz={{ base: 'md', sm: 'lg' }} truncate miw={0} data-testid="tenant-name">
              {props.tenant}
            </Text>
          </Group>
        </Anchor>
        {business?.is_on_trial && (
          <Badge color="red" variant="filled" data-testid="trial-tag">
            {t('layout.trial')}
          </Badge>
        )}
        <UsageCounters user={user} place="bar" />
      </Group>

      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        {userCan(user, 'agencies.manage') && (
          <Button
            component={Link}
            to={pathOf('admin.agency.add')}
            size="xs"
            visibleFrom="sm"
            data-testid="add-agency"
          >
            {t('layout.add_agency')}
          </Button>
        )}
        {showAddBusiness && (
          <Button
            onClick={() => void addGate.open(pathOf(addBusinessRoute))}
            loading={addGate.checking}
            size="xs"
            visibleFrom="sm"
            data-testid="add-business"
          >
            {t('layout.add_business')}
          </Button>
        )}
        {impersonating && (
          <Button
            onClick={props.onStopImpersonation}
            size="xs"
            px={{ base: 8, sm: 'md' }}
            color="orange"
            data-testid="main-account-button"
          >
            {t('layout.main_account')}
          </Button>
        )}
        {canImpersonate(user, impersonating) && (
          <Tooltip label={t('layout.impersonation.toggle')}>
            <Button
              onClick={props.onToggleImpersonation}
              size="xs"
              px={{ base: 8, sm: 'md' }}
              variant="light"
              data-testid="impersonate-toggle"
              aria-label={t('layout.impersonation.toggle')}
            >
              {t('layout.impersonation.button')}
            </Button>
          </Tooltip>
        )}
        {business && (
          // Spec 000 §6: businesses show a help icon; it writes to the agency's support address.
          <Tooltip label={t('layout.help')}>
            <ActionIcon
              component="a"
              href={`mailto:${site?.supportEmail ?? user.agency?.email ?? ''}`}
              variant="light"
              radius="xl"
              aria-label={t('layout.help')}
              data-testid="help-icon"
            >
              ?
            </ActionIcon>
          </Tooltip>
        )}
        <ProfileMenu user={user} onLogout={props.onLogout} />
        <Button
          onClick={props.onLogout}
          size="xs"
          variant="subtle"
          color="gray"
          visibleFrom="sm"
          data-testid="logout-button"
        >
          {t('layout.logout')}
        </Button>
      </Group>
      {addGate.modal}
    </Group>
  );
}
