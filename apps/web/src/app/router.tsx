import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { createBrowserRouter, matchPath, Navigate, type RouteObject } from 'react-router';
import { type LayoutName, ROUTES } from '../lib/nav/route-table.ts';
import { ChunkPending, RouteError } from './chunk-load.tsx';
import { Root } from './root.tsx';
import { RouteScreen, SCREEN_LOADERS } from './route-screen.tsx';

type Loader = () => Promise<{ default: ComponentType }>;

/** Toasts and confirm dialogs (app/overlays.tsx): their own chunk, requested as the app starts. */
const overlays = import('./overlays.tsx');
export const Overlays = lazy(() => overlays);
/**
 * The signed-in area's layout shows once the overlays are in, so a screen's confirm dialog always opens
 * (only signed-in screens ask for one; toasts wait in their store and need no such wait).
 */
const withOverlays =
  (load: Loader): Loader =>
  () =>
    Promise.all([load(), overlays]).then(([layout]) => layout);

const LAYOUT_LOADERS: Record<LayoutName, Loader> = {
  app: withOverlays(() => import('../layouts/app-layout.tsx')),
  auth: () => import('../layouts/auth-layout.tsx'),
  blank: () => import('../layouts/blank-layout.tsx'),
  order: () => import('../layouts/order-layout.tsx'),
  popup: () => import('../layouts/popup-layout.tsx'),
  product: () => import('../layouts/product-layout.tsx'),
};

const LAYOUTS = Object.fromEntries(
  Object.entries(LAYOUT_LOADERS).map(([name, load]) => [name, lazy(load)]),
) as Record<LayoutName, LazyExoticComponent<ComponentType>>;

/**
 * Starts loading the code of the page being opened (its layout and screen) at once, beside the site data,
 * instead of one after the other as the tree renders: on a slow line each step is a round trip (ADR 022).
 * A failure is left to the screen itself, which reports it.
 */
export function preloadRoute(pathname: string): void {
  const def = ROUTES.find((r) => matchPath(r.path, pathname));
  if (!def) return;
  const loaders = [LAYOUT_LOADERS[def.layout], def.screen ? SCREEN_LOADERS[def.screen] : undefined];
  for (const load of loaders) load?.().catch(() => undefined);
}

function LayoutOutlet({ layout }: { layout: LayoutName }) {
  const Layout = LAYOUTS[layout];
  return (
    <Suspense fallback={<ChunkPending />}>
      <Layout />
    </Suspense>
  );
}

const byLayout = (layout: LayoutName): RouteObject => ({
  element: <LayoutOutlet layout={layout} />,
  children: ROUTES.filter((r) => r.layout === layout).map((def) => ({
    path: def.path,
    id: def.name,
    handle: { route: def },
    element: <RouteScreen def={def} />,
  })),
});

export const routes: RouteObject[] = [
  {
    element: <Root />,
    // A screen whose code fails to load says so, with a reload button, instead of a blank page.
    errorElement: <RouteError />,
    children: [
      ...(['auth', 'blank', 'order', 'popup', 'product', 'app'] as const).map(byLayout),
      // The empty path under the auth layout goes to login; unknown paths go to /not-found (spec 000 §2).
      { path: '/auth', element: <Navigate to="/login" replace /> },
      { path: '*', element: <Navigate to="/not-found" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
