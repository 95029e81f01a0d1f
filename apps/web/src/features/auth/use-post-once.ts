import { useEffect, useState } from 'react';
import { api } from '../../lib/api-client.ts';

export type PostOutcome<T> =
  | { status: 'pending' }
  | { status: 'success'; data: T }
  | { status: 'error'; error: unknown };

const PENDING = { status: 'pending' } as const;

// One request per (path, body) for the life of the page: StrictMode's double effects and a remount of the
// same screen reuse it, so a one-time token is spent exactly once. A failed call is forgotten, so that
// coming back to the screen tries again.
const calls = new Map<string, Promise<unknown>>();

function postOnce<T>(path: string, bodyJson: string): Promise<T> {
  const key = `${path} ${bodyJson}`;
  let call = calls.get(key) as Promise<T> | undefined;
  if (!call) {
    // Silent: the screen shows the outcome itself, so no toast repeats it.
    call = api<T>(path, { method: 'POST', body: JSON.parse(bodyJson), silent: true });
    call.catch(() => calls.delete(key));
    calls.set(key, call);
  }
  return call;
}

/** POSTs `body` to `path` once when the screen opens (`body` null: nothing to send, stays pending). */
export function usePostOnce<T>(path: string, body: Record<string, unknown> | null): PostOutcome<T> {
  const bodyJson = body ? JSON.stringify(body) : null;
  const [state, setState] = useState<{ bodyJson: string | null; outcome: PostOutcome<T> }>({
    bodyJson,
    outcome: PENDING,
  });
  useEffect(() => {
    if (bodyJson === null) return;
    let active = true;
    postOnce<T>(path, bodyJson).then(
      (data) => active && setState({ bodyJson, outcome: { status: 'success', data } }),
      (error: unknown) => active && setState({ bodyJson, outcome: { status: 'error', error } }),
    );
    return () => {
      active = false;
    };
  }, [path, bodyJson]);
  return state.bodyJson === bodyJson ? state.outcome : PENDING;
}
