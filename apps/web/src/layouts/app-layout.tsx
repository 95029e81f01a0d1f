// App layout of spec 000 §2 "Layout": top bar, sidebar, profile dropdown, impersonation (button and
// drawer), agency footer, banners and the global loading flag, around every admin, agency and business
// route. The pieces live in ./app/.
//
// Decisions where the spec is silent (one line each; the rules themselves are in app/layout-rules.ts):
// - A cap of 0 or a missing cap means "no cap": '∞', no banner, never red.
// - The usage counters show both calls and messages whatever the widget type.
// - Banners (and the notification prompt) are hidden on subscriptions pages, and on setup for agencies.
// - Who sees a button asks the capability table (lib/nav/user-can.ts): the agency SMS banners
//   'agencyTelephony.manage' (never for template agencies; read from agency.properties twProfileSid,
//   twCampaignSid), the impersonation toggle 'impersonate' (hidden while impersonating: no chains),
//   'Add Agency' 'agencies.manage', 'Add Business' 'businesses.manage'.
// - Available installs come from POST /v1/agencies/{id}/install-stats, asked afresh by every 'Add Business'
//   entry point (components/add-business-gate.tsx); with none left 'No Installs Available' shows first.
// - {email} in banners and the footer is the site's supportEmail, else the agency's e-mail.
// - The global loading flag is up for 400 ms after a route-name change and while the router navigates.
import { AppShell, LoadingOverlay } from '@mantine/core';
import { Outlet, useLocation, useMatches, useNavigate } from 'react-router';
import { currentRoute } from '../app/root.tsx';
import { useAuth } from '../lib/auth-store.ts';
import { useRealtime } from '../lib/realtime.ts';
import { logout } from '../lib/session.ts';
import { useSite } from '../lib/site.ts';
import { AppFooter } from './app/app-footer.tsx';
import { Banners } from './app/banners.tsx';
import { ImpersonationDrawer } from './app/impersonation-drawer.tsx';
import { SIDEBAR_BREAKPOINT, tenantName } from './app/layout-rules.ts';
import { RouteProgress, useRouteLoading } from './app/route-progress.tsx';
import { Sidebar } from './app/sidebar.tsx';
import { TopBar, UsageCounters } from './app/top-bar.tsx';
import { useImpersonation } from './app/use-impersonation.ts';
import { useSidebar } from './app/use-sidebar.ts';
import { WhatsNew } from './app/whats-new.tsx';

const HEADER_HEIGHT = 60;
const NAVBAR_WIDTH = 260;
const FOOTER_HEIGHT = 40;

export default function AppLayout() {
  const { user, mainToken, token } = useAuth();
  const site = useSite();
  const location = useLocation();
  const navigate = useNavigate();
  const route = currentRoute(useMatches());
  const sidebar = useSidebar(location.pathname);
  const impersonation = useImpersonation();
  const routeLoading = useRouteLoading(route?.name);
  // One realtime socket while signed in: new messages, tasks and statuses refresh screens and badges.
  useRealtime(user ? token : null);

  // Nobody signed in (Root shows its loader while a stored token's profile loads): no shell, only the
  // route, whose guard sends the visitor to sign in with the path kept.
  if (!user) return <Outlet />;

  const siteTitle = site.data?.title || 'Start Texting Now';
  const supportEmail = site.data?.supportEmail || user.agency?.email || '';
  const isAgency = user.role_group === 'Agency';

  const onLogout = async () => {
    await logout();
    navigate('/login', { replace: true });
  };

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={{
        width: NAVBAR_WIDTH,
        breakpoint: SIDEBAR_BREAKPOINT,
        collapsed: { mobile: !sidebar.opened, desktop: !sidebar.opened },
      }}
      footer={isAgency ? { height: FOOTER_HEIGHT } : undefined}
      padding="md"
    >
      <RouteProgress loading={routeLoading || impersonation.busy} />
      <AppShell.Header>
        <TopBar
          user={user}
          siteTitle={siteTitle}
          tenant={tenantName(user, siteTitle)}
          logo={site.data?.headerLogo ?? null}
          impersonating={Boolean(mainToken)}
          sidebarOpened={sidebar.opened}
          onToggleSidebar={sidebar.toggle}
          onToggleImpersonation={impersonation.toggleDrawer}
          onStopImpersonation={() => void impersonation.stop()}
          onLogout={() => void onLogout()}
        />
      </AppShell.Header>
      <AppShell.Navbar data-testid="sidebar" p={0}>
        <UsageCounters user={user} place="drawer" />
        <Sidebar user={user} routeName={route?.name} linkHeight={sidebar.linkHeight} />
      </AppShell.Navbar>
      <AppShell.Main pos="relative">
        <LoadingOverlay visible={impersonation.busy} zIndex={300} data-testid="impersonation-loading" />
        <Banners user={user} routeName={route?.name} supportEmail={supportEmail} />
        <WhatsNew user={user} impersonating={Boolean(mainToken)} />
        <Outlet />
      </AppShell.Main>
      {isAgency && (
        <AppShell.Footer>
          <AppFooter siteTitle={siteTitle} supportEmail={supportEmail} />
        </AppShell.Footer>
      )}
      <ImpersonationDrawer
        opened={impersonation.drawerOpened}
        onClose={impersonation.closeDrawer}
        onPick={(id) => void impersonation.start(id)}
        userId={user.id}
      />
    </AppShell>
  );
}
