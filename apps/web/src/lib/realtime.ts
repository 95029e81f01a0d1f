// The realtime client (ADR 037): one WebSocket per signed-in browser to the server's /ws tree (ADR 015),
// the bearer token as a subprotocol (a browser cannot set an Authorization header on a WebSocket). Events
// invalidate per-resource query keys, so whatever screen shows that resource refreshes itself, and the
// sidebar badges (number_of_messages, number_of_tasks of the signed-in user) are updated in place: from
// new_message, and from unread_messages once the user has read a conversation (ADR 045).
import { useEffect } from 'react';
import { auth } from './auth-store.ts';
import { queryClient } from './query-client.ts';
import { keys } from './query-keys.ts';

/** The tasks resource's root key (the tasks screens use it as their prefix). */
export const TASKS_KEY = ['tasks'] as const;

export type RealtimeEvent = { type: string; data?: unknown };

type NewMessage = { contact?: number; install?: number | null; number_of_messages?: number };
type NewTask = { number_of_tasks?: number };
type MessageStatus = { id?: number; contact?: number; status?: string };

type BroadcastProgress = { id: number; status: string; counts: Record<string, number> };
type BroadcastRow = { id: number; status: string; counts: Record<string, number> };

/** A `broadcast_progress` event into the cached broadcast lists and that broadcast's record. */
function patchBroadcast(event: BroadcastProgress) {
  const patch = <T extends BroadcastRow>(b: T): T =>
    b.id === event.id ? { ...b, status: event.status, counts: event.counts } : b;
  queryClient.setQueriesData<{ data: BroadcastRow[] }>({ queryKey: keys.broadcasts.lists() }, (old) =>
    old && Array.isArray(old.data) ? { ...old, data: old.data.map(patch) } : old,
  );
  queryClient.setQueryData<BroadcastRow>(keys.broadcasts.detail(event.id), (old) => (old ? patch(old) : old));
}

/** Waits before reconnecting: 1 s, 2 s, 4 s ... at most 30 s. */
export function backoffMs(attempt: number): number {
  return Math.min(30_000, 1000 * 2 ** Math.max(0, attempt));
}

const listeners = new Set<(event: RealtimeEvent) => void>();
/** Screens that need the raw event (the inbox's "new message" highlight) listen here. */
export function onRealtime(listener: (event: RealtimeEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function setUserCount(field: 'number_of_messages' | 'number_of_tasks', value: unknown) {
  const user = auth.get().user;
  if (!user || typeof value !== 'number' || user[field] === value) return;
  auth.setUser({ ...user, [field]: value });
}

/** What an event changes in the cache; exported for the unit test. */
export function dispatchRealtime(event: RealtimeEvent): void {
  switch (event.type) {
    case 'new_message': {
      const data = (event.data ?? {}) as NewMessage;
      setUserCount('number_of_messages', data.number_of_messages);
      void queryClient.invalidateQueries({ queryKey: keys.inbox.lists() });
      if (typeof data.contact === 'number')
        void queryClient.invalidateQueries({ queryKey: keys.inbox.contact(data.contact) });
      break;
    }
    case 'unread_messages': {
      // The user read a conversation (here or in another browser): the badge's new total (ADR 045).
      setUserCount(
        'number_of_messages',
        (event.data as { number_of_messages?: unknown } | undefined)?.number_of_messages,
      );
      break;
    }
    case 'message_updated': {
      // An inbound MMS's media were fetched after the text was announced (ADR 049): its image appears.
      const data = (event.data ?? {}) as { contact?: number };
      void queryClient.invalidateQueries({ queryKey: keys.inbox.lists() });
      if (typeof data.contact === 'number')
        void queryClient.invalidateQueries({ queryKey: keys.inbox.contact(data.contact) });
      break;
    }
    case 'message_status': {
      const data = (event.data ?? {}) as MessageStatus;
      if (typeof data.contact === 'number')
        void queryClient.invalidateQueries({ queryKey: keys.inbox.contact(data.contact) });
      else void queryClient.invalidateQueries({ queryKey: keys.inbox.all });
      break;
    }
    case 'conversation_call': {
      // A callback, scheduled or missed call joined a conversation (ADR 052): the lists and that history.
      const data = (event.data ?? {}) as { contact?: number };
      void queryClient.invalidateQueries({ queryKey: keys.inbox.lists() });
      if (typeof data.contact === 'number')
        void queryClient.invalidateQueries({ queryKey: keys.inbox.contact(data.contact) });
      break;
    }
    case 'conversation_lead': {
      // A lead form was sent in (issue 21): the lists, and that contact's submissions (its timeline).
      const data = (event.data ?? {}) as { contact?: number };
      void queryClient.invalidateQueries({ queryKey: keys.inbox.lists() });
      void queryClient.invalidateQueries({ queryKey: keys.leadForms.lists() });
      if (typeof data.contact === 'number') {
        void queryClient.invalidateQueries({ queryKey: keys.inbox.contact(data.contact) });
        void queryClient.invalidateQueries({ queryKey: keys.leadSubmissions.contact(data.contact) });
      }
      break;
    }
    case 'live_data': {
      // A call moved or a visitor opened or closed the widget (ADR 083): the live view refetches.
      void queryClient.invalidateQueries({ queryKey: keys.liveData.all });
      break;
    }
    case 'new_task': {
      const data = (event.data ?? {}) as NewTask;
      setUserCount('number_of_tasks', data.number_of_tasks);
      void queryClient.invalidateQueries({ queryKey: TASKS_KEY });
      break;
    }
    case 'broadcast_progress': {
      // A broadcast's status and counts moved (issue 19): its row in every cached list and its own record
      // take them in place, so the list's progress bars move without asking the server again.
      const data = event.data as BroadcastProgress | undefined;
      if (data && typeof data.id === 'number' && data.counts && typeof data.status === 'string')
        patchBroadcast(data);
      break;
    }
    default:
      break;
  }
  for (const listener of listeners) listener(event);
}

/** The close code of a socket whose session ended (apps/server platform/realtime/socket.ts). */
const SESSION_ENDED = 4001;

function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/ws`;
}

/** Keeps one socket open while a token is held; reconnects with backoff; closes on sign-out. */
export function useRealtime(token: string | null | undefined): void {
  useEffect(() => {
    if (!token || typeof WebSocket === 'undefined') return;
    let socket: WebSocket | null = null;
    let attempt = 0;
    let timer: number | undefined;
    let stopped = false;

    const connect = () => {
      if (stopped) return;
      socket = new WebSocket(socketUrl(), ['bearer', token]);
      socket.onopen = () => {
        // A reconnect may have missed events: refresh what they would have refreshed.
        if (attempt > 0) {
          void queryClient.invalidateQueries({ queryKey: keys.inbox.all });
          void queryClient.invalidateQueries({ queryKey: TASKS_KEY });
          void queryClient.invalidateQueries({ queryKey: keys.liveData.all });
        }
        attempt = 0;
      };
      socket.onmessage = (e) => {
        try {
          const event = JSON.parse(String(e.data)) as RealtimeEvent;
          if (event && typeof event.type === 'string') dispatchRealtime(event);
        } catch {
          // Not JSON: not ours.
        }
      };
      socket.onclose = (e) => {
        socket = null;
        // The session ended (logout elsewhere, password change, impersonation stopped, expiry: ADR 050):
        // the same token will not open another socket; the next API call signs the user out.
        if (stopped || e.code === SESSION_ENDED) return;
        timer = window.setTimeout(connect, backoffMs(attempt));
        attempt += 1;
      };
    };
    connect();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      socket?.close();
    };
  }, [token]);
}
