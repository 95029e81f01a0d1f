import { Avatar, Group, Menu, Text, UnstyledButton } from '@mantine/core';
import type { TUser } from '@stn/contracts/profile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { userCan } from '../../lib/nav/user-can.ts';
import { initials, profilePath } from './layout-rules.ts';

/** The user's avatar image, else the initials (spec 000 §3). */
export function UserAvatar({ user, size = 32 }: { user: TUser; size?: number }) {
  return (
    <Avatar
      src={user.avatar || null}
      alt={`${user.first_name} ${user.last_name}`.trim()}
      size={size}
      radius="xl"
      color="brand"
    >
      {initials(user)}
    </Avatar>
  );
}

/**
 * Profile dropdown (spec 000 §2): avatar, then Profile (→ /{group}/profile) and Logout. A platform admin
 * also finds the platform's settings here (the support chat, ADR 042): the spec's admin menu has no entry
 * for its `settings` route.
 */
export function ProfileMenu({ user, onLogout }: { user: TUser; onLogout: () => void }) {
  const { t } = useTranslation();
  const name = `${user.first_name} ${user.last_name}`.trim() || user.email;
  return (
    <Menu position="bottom-end" width={220} shadow="md" withinPortal>
      <Menu.Target>
        <UnstyledButton data-testid="profile-menu" aria-label={t('layout.profile_menu')}>
          <Group gap="xs" wrap="nowrap">
            <UserAvatar user={user} />
            <Text size="sm" fw={500} visibleFrom="lg" truncate maw={160}>
              {name}
            </Text>
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="xs" truncate>
            {user.email}
          </Text>
        </Menu.Label>
        <Menu.Item component={Link} to={profilePath(user.role_group)} data-testid="profile-link">
          {t('layout.profile')}
        </Menu.Item>
        {user.role_group === 'Admin' && userCan(user, 'supportWidget.manage') && (
          <Menu.Item component={Link} to="/admin/settings" data-testid="platform-settings-link">
            {t('layout.platform_settings')}
          </Menu.Item>
        )}
        <Menu.Item color="red" onClick={onLogout} data-testid="logout">
          {t('layout.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
