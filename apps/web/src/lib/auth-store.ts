import type { TUser } from '@stn/contracts/profile';
import type { TRoleGroup } from '@stn/contracts/roles';
import { useSyncExternalStore } from 'react';
import { local } from './storage-fallback.ts';

// Auth state of spec 000 §3: the user and whether we are impersonating. Tokens live in localStorage so a
// reload keeps the session; the main token is kept aside while impersonating.
const K = {
  token: 'access_token',
  main: 'main_access_token',
  roleGroup: 'role_group',
  mainRoleGroup: 'main_role_group',
};

type AuthState = {
  token: string | null;
  mainToken: string | null;
  roleGroup: TRoleGroup | null;
  user: TUser | null;
};

let state: AuthState = {
  token: local.getItem(K.token),
  mainToken: local.getItem(K.main),
  roleGroup: local.getItem(K.roleGroup) as TRoleGroup | null,
  user: null,
};
const listeners = new Set<() => void>();

function set(next: Partial<AuthState>) {
  state = { ...state, ...next };
  for (const l of listeners) l();
}

function store(key: string, value: string | null) {
  if (value === null) local.removeItem(key);
  else local.setItem(key, value);
}

export const auth = {
  get: () => state,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signIn(token: string, roleGroup: TRoleGroup) {
    store(K.token, token);
    store(K.roleGroup, roleGroup);
    set({ token, roleGroup, user: null });
  },
  setUser(user: TUser | null) {
    set({ user });
  },
  /** Swaps in the impersonation token, keeping the main one to come back to. */
  startImpersonation(token: string, roleGroup: TRoleGroup) {
    if (!state.mainToken) {
      store(K.main, state.token);
      store(K.mainRoleGroup, state.roleGroup);
    }
    store(K.token, token);
    store(K.roleGroup, roleGroup);
    set({ token, roleGroup, mainToken: state.mainToken ?? state.token, user: null });
  },
  /**
   * Restores the main token; answers the role group to go back to. Only once: when a request's 401 (the
   * impersonation ended while it was in flight) has already restored the main session, the answer of the
   * "Main Account" click must not end it again (it would leave no token at all, and sign the user out).
   */
  stopImpersonation(): TRoleGroup | null {
    if (!state.mainToken) return state.roleGroup;
    const token = state.mainToken;
    const roleGroup = (local.getItem(K.mainRoleGroup) as TRoleGroup | null) ?? state.roleGroup;
    store(K.token, token);
    store(K.roleGroup, roleGroup);
    store(K.main, null);
    store(K.mainRoleGroup, null);
    set({ token, roleGroup, mainToken: null, user: null });
    return roleGroup;
  },
  clear() {
    for (const key of Object.values(K)) local.removeItem(key);
    set({ token: null, mainToken: null, roleGroup: null, user: null });
  },
};

export function useAuth(): AuthState {
  return useSyncExternalStore(auth.subscribe, auth.get);
}

/** The role group of the main session while impersonating (null otherwise). */
export function mainRoleGroup(): TRoleGroup | null {
  return auth.get().mainToken ? (local.getItem(K.mainRoleGroup) as TRoleGroup | null) : null;
}
