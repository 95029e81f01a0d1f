import { Center, Loader, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, type useMatches, useNavigate } from 'react-router';
import { clearSession, setUnauthorizedHandler } from '../lib/api-client.ts';
import { auth } from '../lib/auth-store.ts';
import type { RouteDef } from '../lib/nav/route-table.ts';
import { PLATFORM_NAME } from '../lib/page-title.ts';
import { queryClient } from '../lib/query-client.ts';
import { useSession } from '../lib/session.ts';
import { useSite } from '../lib/site.ts';
import { useSupportWidget } from '../lib/support-widget.ts';
import { useRouteName } from '../lib/use-route-name.ts';

export function currentRoute(matches: ReturnType<typeof useMatches>): RouteDef | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const def = (matches[i]?.handle as { route?: RouteDef } | undefined)?.route;
    if (def) return def;
  }
  return undefined;
}

/** Site data, page title, favicon, maintenance, the session and the 401 rule, around every route. */
export function Root() {
  const { t } = useTranslation();
  const site = useSite();
  const session = useSession();
  const navigate = useNavigate();
  // The support chat of spec 000 §2 Layout, for the signed-in user on the route shown.
  useSupportWidget(session.user, useRouteName());

  useEffect(() => {
    setUnauthorizedHandler(() => {
      // An impersonation that expired or was ended elsewhere falls back to the main session, which may
      // still be valid (if not, its own 401 comes next and logs out).
      if (auth.get().mainToken) {
        const roleGroup = auth.stopImpersonation();
        queryClient.clear();
        navigate(`/${(roleGroup ?? '').toLowerCase()}`, { replace: true });
        return;
      }
      clearSession();
      navigate(window.location.pathname.startsWith('/auth') ? '/auth/login' : '/login', { replace: true });
    });
  }, [navigate]);

  // The tab title names the screen: set by each route's screen (app/route-screen.tsx).
  const title = site.data?.title || PLATFORM_NAME;
  useEffect(() => {
    const href = site.data?.favicon;
    const link = document.getElementById('favicon') as HTMLLinkElement | null;
    if (link && href) link.href = href;
  }, [site.data?.favicon]);

  if (site.data?.maintenance) {
    return (
      <Center h="100vh" p="xl" data-testid="maintenance">
        <div style={{ maxWidth: 560, textAlign: 'center' }}>
          <Title order={2} mb="md">
            {title}
          </Title>
          <Text size="lg">{t('app.maintenance')}</Text>
        </div>
      </Center>
    );
  }
  if (site.isPending || session.loading) {
    return (
      <Center h="100vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  return <Outlet />;
}
