import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Overlays, preloadRoute, router } from './app/router.tsx';
import { i18nReady } from './lib/i18n.ts';
import { queryClient } from './lib/query-client.ts';
import { siteQuery } from './lib/site.ts';

// Palette primary #1a76d2 (spec 000 §9).
const theme = createTheme({
  // Someone whose system asks for reduced motion gets menus, modals and sections without their animations.
  respectReducedMotion: true,
  primaryColor: 'brand',
  colors: {
    brand: [
      '#e5f2ff',
      '#cde1fb',
      '#9cc0f2',
      '#679de9',
      '#3d80e2',
      '#236ddf',
      '#1a76d2',
      '#0a52c6',
      '#0049b2',
      '#003f9e',
    ],
  },
});

// The page's own code starts loading now, beside the site data, not after it (ADR 022); so does the site
// data, while the user's language arrives (ADR 060).
preloadRoute(window.location.pathname);
void queryClient.prefetchQuery(siteQuery);

// React replaces the splash of index.html inside #root when it mounts, once the texts are in (had they
// failed to load, the screens would show their keys rather than nothing).
const root = document.getElementById('root');
if (root) {
  const render = () =>
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <MantineProvider theme={theme}>
            {/* Inside the query client, so that a modal's content can use server data. */}
            <Suspense fallback={null}>
              <Overlays />
            </Suspense>
            <RouterProvider router={router} />
          </MantineProvider>
        </QueryClientProvider>
      </StrictMode>,
    );
  i18nReady.then(render, render);
}
