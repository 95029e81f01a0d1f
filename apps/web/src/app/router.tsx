import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { type LayoutName, ROUTES } from '../lib/nav/route-table.ts';
import { Root } from './root.tsx';
import { RouteScreen } from './route-screen.tsx';

const LAYOUTS: Record<LayoutName, LazyExoticComponent<ComponentType>> = {
  app: lazy(() => import('../layouts/app-layout.tsx')),
  auth: lazy(() => import('../layouts/auth-layout.tsx')),
  blank: lazy(() => import('../layouts/blank-layout.tsx')),
  order: lazy(() => import('../layouts/order-layout.tsx')),
  popup: lazy(() => import('../layouts/popup-layout.tsx')),
  product: lazy(() => import('../layouts/product-layout.tsx')),
};

function LayoutOutlet({ layout }: { layout: LayoutName }) {
  const Layout = LAYOUTS[layout];
  return (
    <Suspense fallback={null}>
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
    children: [
      ...(['auth', 'blank', 'order', 'popup', 'product', 'app'] as const).map(byLayout),
      // The empty path under the auth layout goes to login; unknown paths go to /not-found (spec 000 §2).
      { path: '/auth', element: <Navigate to="/login" replace /> },
      { path: '*', element: <Navigate to="/not-found" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);
