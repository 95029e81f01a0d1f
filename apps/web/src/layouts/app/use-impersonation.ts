import type { TImpersonateResponse } from '@stn/contracts/auth';
import type { TRoleGroup } from '@stn/contracts/roles';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, api } from '../../lib/api-client.ts';
import { auth } from '../../lib/auth-store.ts';
import { queryClient } from '../../lib/query-client.ts';
import { areaPath, impersonationTarget } from './layout-rules.ts';

const unauthorized = (err: unknown) => err instanceof ApiError && err.status === 401;

/**
 * Impersonation of spec 000 §4 and its drawer state. Start: close the drawer, set the loading flag,
 * POST /v1/impersonate/{id}, swap tokens (the main one is kept), clear every cached list, then go to
 * /agency, /business/automation (template) or /business. Stop: DELETE /v1/impersonate with the
 * impersonation token, restore the main token, clear the cache, go to the stored role group's area.
 * Failures show no message (silent); the drawer reopens and the loading flag clears. A 401 is the api
 * client's (log out, go to sign-in), so the drawer stays shut then.
 *
 * After the swap auth.user is null: useSession (root.tsx) shows its loader and loads the profile of the
 * new token (with ?i=1 while a main token is held), then the guards place the user.
 * Push-notification subscriptions (dropped at both moments in the spec) do not exist in this app yet.
 */
export function useImpersonation() {
  const navigate = useNavigate();
  const [drawerOpened, setDrawerOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  const openedRef = useRef(drawerOpened);
  openedRef.current = drawerOpened;

  const start = useCallback(
    async (id: number) => {
      setDrawerOpened(false);
      setBusy(true);
      try {
        const res = await api<TImpersonateResponse>(`/v1/impersonate/${id}`, {
          method: 'POST',
          silent: true,
        });
        auth.startImpersonation(res.access_token, res.role_group);
        queryClient.clear();
        navigate(impersonationTarget(res));
      } catch (err) {
        if (!unauthorized(err)) setDrawerOpened(true);
      } finally {
        setBusy(false);
      }
    },
    [navigate],
  );

  /** `to`: where to go once back in the main session (default: its area). */
  const stop = useCallback(
    async (to?: string) => {
      const wasOpen = openedRef.current;
      setDrawerOpened(false);
      setBusy(true);
      try {
        const res = await api<{ role_group: TRoleGroup }>('/v1/impersonate', {
          method: 'DELETE',
          silent: true,
        });
        const roleGroup = auth.stopImpersonation() ?? res.role_group;
        queryClient.clear();
        navigate(to ?? areaPath(roleGroup));
      } catch (err) {
        // Decision: "the drawer reopens" — it is put back the way it was (it may have been shut already).
        if (!unauthorized(err) && wasOpen) setDrawerOpened(true);
      } finally {
        setBusy(false);
      }
    },
    [navigate],
  );

  return {
    drawerOpened,
    openDrawer: useCallback(() => setDrawerOpened(true), []),
    closeDrawer: useCallback(() => setDrawerOpened(false), []),
    toggleDrawer: useCallback(() => setDrawerOpened((o) => !o), []),
    busy,
    start,
    stop,
  };
}
