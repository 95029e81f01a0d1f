import { Alert, Anchor, Box } from '@mantine/core';
import type { TUser } from '@stn/contracts/profile';
import { useEffect, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { enablePush, renewPush } from '../../features/inbox/push.ts';
import { pathOf } from '../../lib/nav/route-table.ts';
import { agencySmsBanner, bannersHidden, type UsageLevel, usageOf } from './layout-rules.ts';

type Props = {
  user: TUser;
  routeName: string | undefined;
  /** The agency's support e-mail (site data of the host). */
  supportEmail: string;
};

function UsageBanner({
  kind,
  level,
  email,
}: {
  kind: 'calls' | 'messages';
  level: UsageLevel;
  email: string;
}) {
  const { t } = useTranslation();
  if (level === 'ok') return null;
  return (
    <Alert
      mb="sm"
      color={level === 'limit' ? 'red' : 'yellow'}
      variant="light"
      data-testid={`banner-${kind}-${level}`}
    >
      {t(`layout.banners.${kind}_${level}`, { email })}
    </Alert>
  );
}

function notificationPermission(): NotificationPermission | null {
  return typeof window !== 'undefined' && 'Notification' in window ? Notification.permission : null;
}

/** Business users whose browser has not been asked yet: 'We recommend enabling desktop notification.' */
function NotificationPrompt() {
  const [permission, setPermission] = useState(notificationPermission);
  // A browser that granted it registers its push subscription again (it may have changed; ADR 037).
  useEffect(() => {
    void renewPush();
  }, []);
  if (permission !== 'default') return null;
  // The permission, then the service worker and the push subscription sent to api/v1/pusher/beams-auth.
  const ask = () => {
    void enablePush()
      .catch(() => undefined)
      .finally(() => setPermission(notificationPermission()));
  };
  return (
    <Alert mb="sm" color="blue" variant="light" data-testid="banner-notifications">
      <Trans
        i18nKey="layout.banners.notifications"
        components={{
          action: (
            <Anchor
              component="button"
              type="button"
              onClick={ask}
              fz="inherit"
              data-testid="enable-notifications"
            />
          ),
        }}
      />
    </Alert>
  );
}

/**
 * The agency's SMS registration, where it applies (a real Twilio account), as spec 000 §8 words it: its
 * "Click Here" goes to the profile list (no profile submitted yet) or to the SMS registration (no campaign).
 */
function AgencySmsBanner({ user }: { user: TUser }) {
  const banner = agencySmsBanner(user);
  if (!banner) return null;
  const [key, route] =
    banner === 'twilio-profile'
      ? ['layout.banners.twilio_profile', 'agency.twilioProfile']
      : ['layout.banners.sms_registration', 'agency.sms-registration'];
  return (
    <Alert mb="sm" color="yellow" variant="light" data-testid={`banner-${banner}`}>
      <Trans
        i18nKey={key}
        components={{
          action: (
            <Anchor component={Link} to={pathOf(route)} fz="inherit" data-testid={`banner-${banner}-link`} />
          ),
        }}
      />
    </Alert>
  );
}

/**
 * Banners of spec 000 §8 above the page: business usage (90% warning, limit reached) for calls and text
 * messages, the desktop-notification prompt for businesses, and the agency SMS-registration banners.
 * Hidden on subscriptions pages and, for agencies, on setup.
 */
export function Banners({ user, routeName, supportEmail }: Props) {
  if (bannersHidden(routeName, user.role_group)) return null;
  const business = user.role_group === 'Business' ? user.business : null;
  return (
    <Box data-testid="banners">
      {business && (
        <>
          <UsageBanner
            kind="calls"
            level={usageOf(business.number_of_calls, business.calls).level}
            email={supportEmail}
          />
          <UsageBanner
            kind="messages"
            level={usageOf(business.number_of_messages, business.messages).level}
            email={supportEmail}
          />
        </>
      )}
      {user.role_group === 'Business' && <NotificationPrompt />}
      {user.role_group === 'Agency' && <AgencySmsBanner user={user} />}
    </Box>
  );
}
