import { z } from 'zod';

// Live data (spec 000 §7 `GET /v1/live-data`, "answers not shown"; ADR 083): the calls ringing and in
// progress right now, and the visitors with the widget open, for a business's dashboard (or, across its
// businesses, an agency's). Kept current by the realtime `live_data` message: the web app refetches.

export const LIVE_CALL_STATES = ['ringing', 'in_progress'] as const;
export const ZLiveCallState = z.enum(LIVE_CALL_STATES);
export type TLiveCallState = z.infer<typeof ZLiveCallState>;

/** The realtime message on the business and agency channels when live data changed (no payload). */
export const LIVE_DATA_EVENT = 'live_data';

export const ZLiveCall = z.object({
  id: z.number().int(),
  install_id: z.number().int(),
  install_name: z.string(),
  kind: z.enum(['callback', 'scheduled', 'inbound']),
  /** Ringing: staff phones are being rung (not yet connected); in progress: the visitor is connected. */
  state: ZLiveCallState,
  visitor_phone: z.string(),
  visitor_name: z.string().nullable(),
  agent_name: z.string().nullable(),
  /** When the current state began (requested, or connected), ISO 8601. */
  since: z.string(),
  /** Only in an agency's answer: whose call it is. */
  business_id: z.number().int().optional(),
  business_name: z.string().optional(),
});
export type TLiveCall = z.infer<typeof ZLiveCall>;

export const ZLiveInstallVisitors = z.object({
  install_id: z.number().int(),
  install_name: z.string(),
  count: z.number().int(),
  business_id: z.number().int().optional(),
  business_name: z.string().optional(),
});

export const ZLiveData = z.object({
  calls: z.array(ZLiveCall),
  visitors: z.object({ total: z.number().int(), by_install: z.array(ZLiveInstallVisitors) }),
  /** The server's time of the answer, ISO 8601. */
  at: z.string(),
});
export type TLiveData = z.infer<typeof ZLiveData>;
export const ZLiveDataResponse = z.object({ success: z.literal(true), data: ZLiveData });

/**
 * The widget's heartbeat (POST /api/widget/v1/presence): all in the query string (`key`, `visitor`,
 * `open`), so that navigator.sendBeacon can send the closing one (it sets no header) and no preflight is
 * needed. `visitor` is a random id per browser tab.
 */
export const ZPresenceQuery = z.object({
  key: z.string().optional(),
  visitor: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
  open: z.enum(['0', '1']).default('1'),
});
export const ZPresenceAnswer = z.object({ success: z.literal(true), data: z.object({ open: z.boolean() }) });
