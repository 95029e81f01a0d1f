// The open panel's heartbeat (ADR 083): the business's live view counts the visitors with the widget open.
// A random id per page, a beat every 30 s while open and visible, a goodbye when closed or hidden (a beacon,
// which outlives the page). All in the query string: no header, so no preflight and a beacon can send it.
import { PRESENCE_BEAT_SECONDS, PRESENCE_PATH } from '@stn/contracts/presence';

export function presence(base: string, key: string): (open: boolean) => void {
  const id = Math.random().toString(36).slice(2) + Date.now().toString(36);
  let timer: ReturnType<typeof setInterval> | undefined;
  let on = false;
  const send = (open: number) => {
    const url = `${base}/api/widget${PRESENCE_PATH}?key=${encodeURIComponent(key)}&visitor=${id}&open=${open}`;
    if (!open && navigator.sendBeacon?.(url)) return;
    fetch(url, { method: 'POST', credentials: 'omit', keepalive: true }).catch(() => undefined);
  };
  const set = (open: boolean) => {
    if (open === on) return;
    on = open;
    clearInterval(timer);
    if (open) timer = setInterval(() => send(1), PRESENCE_BEAT_SECONDS * 1000);
    send(open ? 1 : 0);
  };
  let wanted = false;
  document.addEventListener('visibilitychange', () => set(wanted && !document.hidden));
  addEventListener('pagehide', () => set(false));
  return (open) => {
    wanted = open;
    set(open && !document.hidden);
  };
}
