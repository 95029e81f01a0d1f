import { Center, Loader } from '@mantine/core';
import type { TSiteData } from '@stn/contracts/site';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate } from 'react-router';
import { useAuth } from '../../lib/auth-store.ts';
import { installLandingScript, scheduleLandingScriptRemoval } from '../../lib/landing-script.ts';
import { dashboardLink } from '../../lib/nav/guards.ts';
import { useSite } from '../../lib/site.ts';

// The landing route (spec 000 §2, §4): nothing but a loader until site data confirms a landing page; the
// main agency goes to its marketing site when the Admin set one (ADR 077); a site without a landing page
// (and the main agency without a marketing site) goes to sign in, a signed-in user to their dashboard. The
// page itself is a chunk of its own; its download starts with this screen's, beside the site data, not
// after it: one round trip less before the page shows (ADR 022); a site without one fetched it for nothing.
const landingPage = import('./landing-page.tsx');
const LandingPage = lazy(() => landingPage);

/** Whether this site shows the landing page. */
export function showsLanding(site: TSiteData): boolean {
  return site.validDomain && site.landingPage && !site.isMainAgency;
}

/** The external marketing site '/' goes to: the main agency's, when it has one (spec 000 §2). */
export function marketingSite(site: TSiteData): string | null {
  return site.validDomain && site.isMainAgency && site.marketingUrl ? site.marketingUrl : null;
}

/** Installs the site's custom script while the landing route shows; removed 3 s after it is left. */
function useCustomScript(script: string | null | undefined, active: boolean) {
  useEffect(() => {
    if (!active) return;
    installLandingScript(script ?? null);
    return () => scheduleLandingScriptRemoval();
  }, [script, active]);
}

export default function LandingScreen() {
  const { user } = useAuth();
  const site = useSite();
  const shows = site.data ? showsLanding(site.data) : false;
  const marketing = site.data ? marketingSite(site.data) : null;
  useCustomScript(site.data?.custom_script, shows);
  useEffect(() => {
    // A page of another site: replace, so Back does not come here to be sent away again.
    if (marketing) window.location.replace(marketing);
  }, [marketing]);
  if (site.isPending || marketing) return <Pending />;
  if (!site.data || !shows) return <Navigate to={user ? dashboardLink(user) : '/login'} replace />;
  return (
    <Suspense fallback={<Pending />}>
      <LandingPage site={site.data} />
    </Suspense>
  );
}

/** Until site data (and the page's code) are in: nothing of the page yet (spec §4). */
function Pending() {
  return (
    <Center mih="100vh" data-testid="landing-pending">
      <Loader size="sm" />
    </Center>
  );
}
