import { Title } from '@mantine/core';
import { type ComponentType, type LazyExoticComponent, lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useParams } from 'react-router';
import { NotAllowedBoundary } from '../components/not-allowed.tsx';
import { useAuth } from '../lib/auth-store.ts';
import { guard, isHeldScreen } from '../lib/nav/guards.ts';
import type { RouteDef } from '../lib/nav/route-table.ts';
import { pageTitle } from '../lib/page-title.ts';
import { useSite } from '../lib/site.ts';
import { adminRoutes } from './admin-routes.ts';
import { agencyRoutes } from './agency-routes.ts';
import { businessRoutes } from './business-routes.ts';
import { ChunkPending } from './chunk-load.tsx';
import { HeldNotice } from './held-screen.tsx';
import { LightLogin } from './light-login.tsx';

// Each screen is its own chunk, so the sign-in page does not load the areas' code.
export const SCREEN_LOADERS: Record<string, () => Promise<{ default: ComponentType }>> = {
  landing: () => import('../features/landing/landing-screen.tsx'),
  'password-email': () => import('../features/auth/password-email-page.tsx'),
  'password-reset': () => import('../features/auth/password-reset-page.tsx'),
  'email-verify': () => import('../features/auth/email-verify-page.tsx'),
  unsubscribe: () => import('../features/auth/unsubscribe-page.tsx'),
  'not-found': () => import('../features/errors/not-found-page.tsx'),
  profile: () => import('../features/profile/profile-page.tsx'),
  'release-notes': () => import('../features/sites/release-notes-page.tsx'),
  'agency-order': () => import('../features/orders/agency-order-screen.tsx'),
  'business-order': () => import('../features/orders/business-order-screen.tsx'),
  'product-order': () => import('../features/orders/product-order-screen.tsx'),
  'order-thankyou': () => import('../features/orders/thank-you-screen.tsx'),
  popup: () => import('../features/orders/popup-page.tsx'),
};
const SCREENS: Record<string, LazyExoticComponent<ComponentType>> = Object.fromEntries(
  Object.entries(SCREEN_LOADERS).map(([name, load]) => [name, lazy(load)]),
);

// The areas exist only as these registries: route names mapped to the domain features' screens.
const AREA_SCREENS: Record<string, LazyExoticComponent<ComponentType>> = {
  ...adminRoutes,
  ...agencyRoutes,
  ...businessRoutes,
};

/** A screen whose issue has not landed: the menu title and nothing else (issue 3). */
function EmptyPage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <Title order={2} data-testid="page-title">
      {t(title)}
    </Title>
  );
}

/** The product-order pages: the tab shows the site title alone (spec 000 §1). */
const TITLE_ALONE = new Set(['product-order', 'product-thankyou']);

/** The tab names the screen: '<Screen> - <Site title> - Start Texting Now', in the current language. */
function useDocumentTitle(def: RouteDef, siteTitle: string | undefined) {
  const { t } = useTranslation();
  const title = pageTitle(t(def.title), siteTitle, TITLE_ALONE.has(def.name));
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** Runs the guards of spec 000 §4 for a route, then shows its screen. */
export function RouteScreen({ def }: { def: RouteDef }) {
  const { user } = useAuth();
  const site = useSite();
  useDocumentTitle(def, site.data?.title);
  const location = useLocation();
  const params = useParams();
  const decision = guard({
    user,
    site: site.data ?? null,
    route: def,
    path: location.pathname,
    search: location.search,
    params: params as Record<string, string>,
  });
  if ('redirect' in decision) return <Navigate to={decision.redirect} replace />;
  // The sign-in page is not part of the app (ADR 025).
  if (def.screen === 'login') return <LightLogin />;
  const Screen = def.screen ? SCREENS[def.screen] : AREA_SCREENS[def.name];
  // A screen a guard holds the user on explains what is missing and who can fix it (ADR 023), above the
  // screen itself, or alone while that screen is not built.
  const held = user && isHeldScreen(user, location.pathname) ? <HeldNotice user={user} /> : null;
  if (!Screen) return held ?? <EmptyPage title={def.title} />;
  return (
    <>
      {held}
      <NotAllowedBoundary key={location.pathname}>
        <Suspense fallback={<ChunkPending />}>
          <Screen />
        </Suspense>
      </NotAllowedBoundary>
    </>
  );
}
