import { Badge, NavLink, ScrollArea } from '@mantine/core';
import type { TUser } from '@stn/contracts/profile';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type MenuItem, menuFor } from '../../lib/nav/menus.ts';
import { pathOf } from '../../lib/nav/route-table.ts';

type Props = {
  user: TUser;
  /** The current route name (active state). */
  routeName: string | undefined;
  linkHeight: number;
};

function isActive(item: MenuItem, routeName: string | undefined): boolean {
  if (!routeName) return false;
  if (item.children) return item.children.some((c) => isActive(c, routeName));
  return item.route === routeName || Boolean(item.activeOn?.includes(routeName));
}

function badgeCount(item: MenuItem, user: TUser): number {
  if (item.badge === 'messages') return user.number_of_messages;
  if (item.badge === 'tasks') return user.number_of_tasks;
  return 0;
}

function ItemBadge({ item, user }: { item: MenuItem; user: TUser }) {
  const count = badgeCount(item, user);
  if (count <= 0) return null;
  return (
    <Badge size="sm" color="red" circle={count < 10} data-testid={`sidebar-badge-${item.badge}`}>
      {count > 99 ? '99+' : count}
    </Badge>
  );
}

function SidebarLink({ item, user, routeName, linkHeight }: Props & { item: MenuItem }) {
  const { t } = useTranslation();
  const common = {
    label: t(item.title),
    active: isActive(item, routeName),
    disabled: item.disabled,
    h: linkHeight,
    rightSection: <ItemBadge item={item} user={user} />,
    'data-testid': 'sidebar-link',
    'data-route': item.route,
  };
  if (item.disabled) {
    // No href: a disabled item is shown but cannot be followed, not even from the keyboard.
    return <NavLink {...common} component="a" aria-disabled tabIndex={-1} />;
  }
  return <NavLink {...common} component={Link} to={pathOf(item.route)} />;
}

function SidebarGroup({ item, user, routeName, linkHeight }: Props & { item: MenuItem }) {
  const { t } = useTranslation();
  const childActive = isActive(item, routeName);
  const [opened, setOpened] = useState(childActive);
  // A route change into the group opens it; the user may still close it.
  useEffect(() => {
    if (childActive) setOpened(true);
  }, [childActive]);
  return (
    <NavLink
      label={t(item.title)}
      active={childActive && !opened}
      disabled={item.disabled}
      opened={opened}
      onChange={setOpened}
      h={linkHeight}
      data-testid="sidebar-group"
      data-group={item.key}
      component="button"
      type="button"
    >
      {item.children?.map((child) => (
        <SidebarEntry
          key={child.key}
          item={child}
          user={user}
          routeName={routeName}
          linkHeight={linkHeight}
        />
      ))}
    </NavLink>
  );
}

function SidebarEntry(props: Props & { item: MenuItem }) {
  return props.item.children ? <SidebarGroup {...props} /> : <SidebarLink {...props} />;
}

/** The sidebar menu of spec 000 §2 "Menus per role": menuFor(user), translated, with badges. */
export function Sidebar({ user, routeName, linkHeight }: Props) {
  const items = useMemo(() => menuFor(user), [user]);
  return (
    <ScrollArea type="auto" flex={1}>
      <nav>
        {items.map((item) => (
          <SidebarEntry
            key={item.key}
            item={item}
            user={user}
            routeName={routeName}
            linkHeight={linkHeight}
          />
        ))}
      </nav>
    </ScrollArea>
  );
}
