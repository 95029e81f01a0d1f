// The business's analytics integration (issue 25, ADR 087): the widget's events reported to the host page's
// Google Analytics 4 (`gtag`) and/or Tag Manager data layer, when the business turned it on. Only the event
// and the install (id, business name) go out: never the visitor's phone, name or e-mail.
import type { TWidgetConfig } from '@stn/contracts/widget';
import type { Api } from './api.ts';

export type TagEvent = 'widget_open' | 'callback_request' | 'text_sent' | 'call_booked' | 'lead_submitted';

type HostGlobals = { gtag?: (...args: unknown[]) => void; dataLayer?: { push: (o: unknown) => unknown } };

/** A reporter of the widget's events to the page, doing nothing when the integration is off. */
export function tagger(config: TWidgetConfig, win: Window): (event: TagEvent) => void {
  const a = config.analytics;
  return (event) => {
    if (!a) return;
    const g = win as unknown as HostGlobals;
    const params = { stn_install_id: config.id, stn_install_name: config.business_name };
    // The page's own scripts: a missing or throwing one never breaks the widget.
    try {
      if (a.gtag && typeof g.gtag === 'function') g.gtag('event', event, params);
    } catch {}
    try {
      if (a.data_layer && g.dataLayer && typeof g.dataLayer.push === 'function')
        g.dataLayer.push({ event: `stn_${event}`, ...params });
    } catch {}
  };
}

/** The widget's sends that are events, by path (a callback asked while closed is none). */
const SENT: Record<string, TagEvent> = {
  '/v1/callback': 'callback_request',
  '/v1/text': 'text_sent',
  '/v1/schedule': 'call_booked',
  '/v1/lead': 'lead_submitted',
};

/** The API, reporting each successful send that is an event. */
export function tagged(api: Api, tag: (event: TagEvent) => void): Api {
  return {
    ...api,
    post: async <T>(path: string, body: unknown) => {
      const r = await api.post<T>(path, body);
      const event = SENT[path];
      if (r.ok && event && (r.data as { status?: string } | null)?.status !== 'closed') tag(event);
      return r;
    },
  };
}
