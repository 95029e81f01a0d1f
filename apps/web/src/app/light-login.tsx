import { useEffect } from 'react';
import { ChunkPending } from './chunk-load.tsx';

/**
 * /login and /auth/login inside the app (a logout, a guard's redirect): the sign-in page is a light page
 * of its own (login.html, ADR 025), so the app loads it in full, keeping the query (`redirect`).
 */
export function LightLogin() {
  useEffect(() => {
    window.location.replace(window.location.pathname + window.location.search);
  }, []);
  return <ChunkPending />;
}
