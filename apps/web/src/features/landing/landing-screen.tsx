import { Center, Loader } from '@mantine/core';
import { showsLanding, type TSiteData } from '@stn/contracts/site';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { lightLandingAddress } from '../../landing/address.ts';
import { useAuth } from '../../lib/auth-store.ts';
import { dashboardLink } from '../../lib/nav/guards.ts';
import { useSite } from '../../lib/site.ts';

// The landing route (spec 000 §2, §4) inside the app. An agency's landing page is a document of its own
// (landing.html, ADR 080): the server serves it for '/' on a site that shows one, so this screen meets '/'
// as the first document only on a site without one. There, the main agency goes to its marketing site when
// the Admin set one (ADR 077); otherwise to sign in, a signed-in user to their dashboard. Reached by a
// client-side navigation on a site with a landing page, it loads the light page.

/** The external marketing site '/' goes to: the main agency's, when it has one (spec 000 §2). */
export function marketingSite(site: TSiteData): string | null {
  return site.validDomain && site.isMainAgency && site.marketingUrl ? site.marketingUrl : null;
}

function documentUrl(): string | undefined {
  return (performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined)?.name;
}

export default function LandingScreen() {
  const { user } = useAuth();
  const site = useSite();
  const shows = site.data ? showsLanding(site.data) : false;
  const marketing = site.data ? marketingSite(site.data) : null;
  useEffect(() => {
    // A page of another site, or the light landing page: replace, so Back does not come here again.
    if (marketing) window.location.replace(marketing);
    else if (shows) window.location.replace(lightLandingAddress(documentUrl()));
  }, [marketing, shows]);
  if (site.isPending || marketing || shows) return <Pending />;
  return <Navigate to={user ? dashboardLink(user) : '/login'} replace />;
}

/** Until site data is in (or while the browser goes elsewhere): nothing of a page yet (spec §4). */
function Pending() {
  return (
    <Center mih="100vh" data-testid="landing-pending">
      <Loader size="sm" />
    </Center>
  );
}
