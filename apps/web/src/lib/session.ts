import { AUTH_PING_MS } from '@stn/contracts/constants';
import { isLanguage } from '@stn/contracts/language';
import type { TUser } from '@stn/contracts/profile';
import { useEffect } from 'react';
import { ApiError, api, clearSession } from './api-client.ts';
import { auth, useAuth } from './auth-store.ts';
import { changeLanguage, loadLanguage } from './i18n.ts';

type ProfileAnswer = { data: { user: TUser; impersonating: boolean } };

/** Loads the profile of the stored token (spec 000 §7 GET /v1/profile, ?i=1 while a main token is held). */
export async function loadProfile(): Promise<TUser> {
  const { mainToken } = auth.get();
  const res = await api<ProfileAnswer>('/v1/profile', {
    query: { i: mainToken ? 1 : undefined },
    silent: true,
  });
  const lang = res.data.user.settings.language;
  // The user's texts are in before the first screen shows (each language is a chunk, ADR 060); if they
  // cannot load, changeLanguage tries again and the screens keep the language they have.
  if (isLanguage(lang)) await loadLanguage(lang).catch(() => undefined);
  auth.setUser(res.data.user);
  if (lang) void changeLanguage(lang).catch(() => undefined);
  return res.data.user;
}

/** The signed-in user, loading it when a token is stored; a failed load logs out and goes to '/'. */
export function useSession() {
  const state = useAuth();
  useEffect(() => {
    if (!state.token || state.user) return;
    let cancelled = false;
    let retry: number | undefined;
    const load = () =>
      loadProfile().catch((err) => {
        if (cancelled) return;
        // No answer at all (the page is being left, or the network is down) is not a failed profile:
        // try again shortly instead of logging out.
        if (err instanceof ApiError && err.code === 'NETWORK') {
          retry = window.setTimeout(load, 2000);
          return;
        }
        clearSession();
        window.location.assign('/');
      });
    void load();
    return () => {
      cancelled = true;
      window.clearTimeout(retry);
    };
  }, [state.token, state.user]);

  // Keep-alive: GET /v1/auth/check every 60 s once a user is loaded; a 401 logs out (api client).
  useEffect(() => {
    if (!state.user) return;
    const timer = window.setInterval(() => {
      api('/v1/auth/check', { silent: true }).catch(() => undefined);
    }, AUTH_PING_MS);
    return () => window.clearInterval(timer);
  }, [state.user]);

  return { ...state, loading: Boolean(state.token && !state.user) };
}

/** POST /v1/logout (failure ignored), then clear the session and every cached list. */
export async function logout(): Promise<void> {
  await api('/v1/logout', { method: 'POST', silent: true }).catch(() => undefined);
  clearSession();
}
