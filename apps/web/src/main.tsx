import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createTheme, MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { preloadRoute, router } from './app/router.tsx';
import './lib/i18n.ts';
import { queryClient } from './lib/query-client.ts';

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

// The page's own code starts loading now, beside the site data, not after it (ADR 022).
preloadRoute(window.location.pathname);

// React replaces the splash of index.html inside #root when it mounts.
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={theme}>
          {/* Inside the query client, so that a modal's content can use server data. */}
          <ModalsProvider>
            <Notifications position="bottom-center" autoClose={5000} />
            <RouterProvider router={router} />
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
