// Web Push in the browser (ADR 037): the service worker /sw.js, the server's VAPID public key, and the
// subscription registered at api/v1/pusher/beams-auth (the spec's push sign-in path, served by our own
// push registration).
import { api } from '../../lib/api-client.ts';

export const PUSH_PATH = '/v1/pusher';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** The VAPID key as the browser wants it (bytes from base64url). */
export function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const padded = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const raw = atob(padded);
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

/** Registers the worker, subscribes with the server's key and sends the subscription to the server. */
export async function enablePush(): Promise<boolean> {
  if (!pushSupported()) return false;
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return false;
  const registration = await navigator.serviceWorker.register('/sw.js');
  const { data } = await api<{ data: { public_key: string } }>(`${PUSH_PATH}/vapid-key`, { silent: true });
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(data.public_key),
    }));
  await api(`${PUSH_PATH}/beams-auth`, {
    method: 'POST',
    body: { subscription: subscription.toJSON() },
    silent: true,
  });
  return true;
}

/** A browser that granted notifications registers again at sign-in (the subscription may have changed). */
export async function renewPush(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  await enablePush().catch(() => undefined);
}
