import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/charts/styles.css';
import { type CSSVariablesResolver, createTheme, MantineProvider } from '@mantine/core';
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

// Dimmed text and links readable on white and on the light grey of footers and cards (WCAG AA, 4.5:1):
// Mantine's defaults (gray.6, and the primary colour for links) fall short on gray.1.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': '#5c636a', '--mantine-color-anchor': 'var(--mantine-color-brand-7)' },
  dark: {},
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
          <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
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
