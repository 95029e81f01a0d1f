import { ZMessageMedia } from './chats.ts';
import { allItemsOf, itemAnswerOf, listOf, ZListQuery } from './http.ts';
import { zPhone } from './users.ts';
import { z } from './zod.ts';

// Broadcasts: bulk texts of a business (spec 000 §2 business `broadcast` routes, §4; spec 001 "Tasks, tags,
// broadcasts": /v1/broadcasts and /v1/broadcasters). ADR 061 says how they are sent.

// ---------------------------------------------------------------- broadcasters (sending numbers)

/**
 * How fast a sending number may text (messages a second), by its kind: a long code 1/s, a toll-free 3/s,
 * a 10DLC number by its brand's trust tier. A broadcaster may set its own rate instead (`rate`).
 */
export const BROADCASTER_KINDS = ['long_code', 'toll_free', '10dlc_low', '10dlc_mid', '10dlc_high'] as const;
export type TBroadcasterKind = (typeof BROADCASTER_KINDS)[number];
export const BROADCASTER_RATES: Record<TBroadcasterKind, number> = {
  long_code: 1,
  toll_free: 3,
  '10dlc_low': 1,
  '10dlc_mid': 10,
  '10dlc_high': 75,
};

/** A number of the business chosen for broadcasts (setting/broadcast-numbers). */
export const ZBroadcaster = z.object({
  id: z.number().int(),
  /** The business's number (telephony numbers). */
  number_id: z.number().int(),
  phone_number: z.string(),
  friendly_name: z.string(),
  kind: z.enum(BROADCASTER_KINDS),
  /** Messages a second: its own when set, else its kind's. */
  rate: z.number(),
  /** Its own rate when set (null: the kind's). */
  custom_rate: z.number().nullable(),
  active: z.boolean(),
  created_at: z.string(),
});
export type TBroadcaster = z.infer<typeof ZBroadcaster>;

export const ZBroadcasterRequest = z.object({
  number_id: z.number().int().positive(),
  kind: z.enum(BROADCASTER_KINDS).default('long_code'),
  /** Messages a second (0.1 to 100); null or absent: the kind's. */
  custom_rate: z.number().min(0.1).max(100).nullable().optional(),
  active: z.boolean().default(true),
});
export type TBroadcasterRequest = z.infer<typeof ZBroadcasterRequest>;
/** An edit of a broadcaster: only the fields sent change (no defaults here, unlike the create). */
export const ZBroadcasterUpdate = z.object({
  kind: z.enum(BROADCASTER_KINDS).optional(),
  custom_rate: z.number().min(0.1).max(100).nullable().optional(),
  active: z.boolean().optional(),
});
export type TBroadcasterUpdate = z.infer<typeof ZBroadcasterUpdate>;

export const ZBroadcasterList = listOf(ZBroadcaster);
export const ZBroadcasterResponse = itemAnswerOf(ZBroadcaster);
export const ZBroadcasterAll = allItemsOf(ZBroadcaster);

// ---------------------------------------------------------------- broadcasts

export const BROADCAST_STATUSES = [
  'draft',
  'scheduled',
  'sending',
  'stopped',
  'completed',
  'failed',
] as const;
export type TBroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/**
 * Who a broadcast goes to: contacts with any of `tag_ids` (none: no tag condition), minus those with any
 * of `exclude_tag_ids`, limited to `install_ids` when given, plus the `contact_ids` picked on the contacts
 * screen. An empty audience (no tags, installs or contacts) is refused.
 */
export const ZBroadcastAudience = z.object({
  tag_ids: z.array(z.number().int().positive()).max(100).default([]),
  exclude_tag_ids: z.array(z.number().int().positive()).max(100).default([]),
  install_ids: z.array(z.number().int().positive()).max(100).default([]),
  contact_ids: z.array(z.number().int().positive()).max(50_000).default([]),
});
export type TBroadcastAudience = z.infer<typeof ZBroadcastAudience>;

/** What the recipients of a broadcast are counted as (the report, the list's progress). */
export const ZBroadcastCounts = z.object({
  /** Recipients in the snapshot (skipped included). */
  total: z.number().int(),
  /** Not sent yet (waiting for their turn, or deferred by quiet hours). */
  pending: z.number().int(),
  /** Handed to the carrier. */
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  /** Not sent, with a reason (opted out, blocked, blacklisted, unreachable, duplicate, no consent). */
  skipped: z.number().int(),
  replied: z.number().int(),
  opted_out: z.number().int(),
  /** Message credits counted against the business's monthly messages. */
  credits_used: z.number().int(),
});
export type TBroadcastCounts = z.infer<typeof ZBroadcastCounts>;

export const ZBroadcast = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(BROADCAST_STATUSES),
  body: z.string(),
  media: z.array(ZMessageMedia),
  template_id: z.number().int().nullable(),
  audience: ZBroadcastAudience,
  /** The broadcasters it sends from (ids); empty: every active broadcaster of the business. */
  broadcaster_ids: z.array(z.number().int()),
  /** When it is to start (ISO, UTC); null: when started. */
  send_at: z.string().nullable(),
  /** The business's time zone, in which `send_at` is shown and entered. */
  time_zone: z.string(),
  counts: ZBroadcastCounts,
  /** The credits it was estimated to use when last saved or started. */
  credits_estimated: z.number().int(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  /**
   * Why a failed broadcast failed, as a locale key: e.g. broadcasts.nothing_sent, or a scheduled one that came
   * due from a number not registered for texting (registration.number_*, ADR 092). Null otherwise.
   */
  failure: z.string().nullable(),
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TBroadcast = z.infer<typeof ZBroadcast>;

/**
 * Create or update a broadcast. `start: true` starts it (now, or at `send_at`); without it the broadcast
 * is saved as a draft (an update of a scheduled one keeps it scheduled at its new time).
 * `media`: media-library ids (templates module).
 */
export const ZBroadcastRequest = z.object({
  name: z.string().trim().min(1).max(191),
  body: z.string().max(1600).default(''),
  media_ids: z.array(z.number().int().positive()).max(10).default([]),
  template_id: z.number().int().positive().nullable().optional(),
  audience: ZBroadcastAudience,
  broadcaster_ids: z.array(z.number().int().positive()).max(50).default([]),
  /** ISO time with offset; null or absent: start at once when started. */
  send_at: z.string().datetime({ offset: true }).nullable().optional(),
  start: z.boolean().default(false),
});
export type TBroadcastRequest = z.infer<typeof ZBroadcastRequest>;

export const ZBroadcastListQuery = ZListQuery.extend({
  search: z.string().trim().max(200).optional(),
  status: z.enum(BROADCAST_STATUSES).optional(),
});
export type TBroadcastListQuery = z.infer<typeof ZBroadcastListQuery>;

export const ZBroadcastList = listOf(ZBroadcast);
export const ZBroadcastResponse = itemAnswerOf(ZBroadcast);

/**
 * POST /v1/broadcasts/message-credit: the audience's recipient count (eligible ones, and how many would be
 * skipped) and the credits the message would use (segments or images by the counter of spec 000 §4, times
 * recipients), against what the business has left this month (null: no limit).
 */
export const ZMessageCreditRequest = z.object({
  body: z.string().max(1600).default(''),
  media_ids: z.array(z.number().int().positive()).max(10).default([]),
  audience: ZBroadcastAudience,
  /** When estimating an existing broadcast (a rerun): only its recipients not yet sent. */
  broadcast_id: z.number().int().positive().optional(),
});
export type TMessageCreditRequest = z.infer<typeof ZMessageCreditRequest>;
export const ZMessageCredit = z.object({
  recipients: z.number().int(),
  skipped: z.number().int(),
  /** Credits one message uses (segments, or 3 with an image). */
  per_message: z.number().int(),
  segments: z.number().int(),
  credits: z.number().int(),
  remaining: z.number().int().nullable(),
  fits: z.boolean(),
});
export type TMessageCredit = z.infer<typeof ZMessageCredit>;
export const ZMessageCreditResponse = itemAnswerOf(ZMessageCredit);

/** POST /v1/broadcasts/test: the message, filled for a sample contact, to one phone, now. */
export const ZBroadcastTestRequest = z.object({
  phone: zPhone(),
  body: z.string().max(1600).default(''),
  media_ids: z.array(z.number().int().positive()).max(10).default([]),
  /** The broadcaster to send from (else the first active one, else the install's number). */
  broadcaster_id: z.number().int().positive().optional(),
});
export type TBroadcastTestRequest = z.infer<typeof ZBroadcastTestRequest>;

/** POST /v1/broadcasts/{id}/rerun: again to recipients not yet sent or failed; optionally new members. */
export const ZBroadcastRerunRequest = z.object({ include_new: z.boolean().default(false) });

/** POST /v1/broadcasts/{id}/tag: tag the recipients (all sent ones, or those who replied). */
export const ZBroadcastTagRequest = z.object({
  tag_ids: z.array(z.number().int().positive()).min(1).max(20),
  who: z.enum(['recipients', 'replied']).default('recipients'),
});

/**
 * POST /v1/broadcasts/{id}/bulk-optout: opt out the recipients whose reply asked to stop in words other than
 * the keywords ("please remove me"); `recipient_ids` (from the report) limits it to those, else all such.
 */
export const ZBroadcastBulkOptOutRequest = z.object({
  recipient_ids: z.array(z.number().int().positive()).max(50_000).optional(),
});
export type TBroadcastBulkOptOutRequest = z.infer<typeof ZBroadcastBulkOptOutRequest>;

/** The answer of tag and bulk-optout: how many recipients it touched. */
export const ZBroadcastBulkResult = z.object({
  success: z.literal(true),
  message: z.string(),
  data: z.object({ count: z.number().int() }),
});

// ---------------------------------------------------------------- report

export const RECIPIENT_STATES = ['pending', 'sending', 'sent', 'delivered', 'failed', 'skipped'] as const;
export type TRecipientState = (typeof RECIPIENT_STATES)[number];
/** Why a recipient was skipped (not sent). */
export const SKIP_REASONS = [
  'opted_out',
  'blocked',
  'blacklisted',
  'unreachable',
  'duplicate',
  'no_consent',
  'no_number',
  'stopped',
] as const;
export type TSkipReason = (typeof SKIP_REASONS)[number];

export const ZBroadcastRecipient = z.object({
  id: z.number().int(),
  contact_id: z.number().int().nullable(),
  name: z.string(),
  phone: z.string(),
  state: z.enum(RECIPIENT_STATES),
  skip_reason: z.enum(SKIP_REASONS).nullable(),
  error_code: z.number().int().nullable(),
  error_message: z.string().nullable(),
  from_number: z.string().nullable(),
  /** When it is due (quiet hours defer it to 08:00 in the recipient's time zone). */
  due_at: z.string(),
  sent_at: z.string().nullable(),
  delivered_at: z.string().nullable(),
  replied_at: z.string().nullable(),
  opted_out_at: z.string().nullable(),
  /** The recipient's latest reply to the broadcast (null: none). */
  reply: z.string().nullable(),
  /** The reply asks to stop in words other than the STOP keywords (bulk-optout opts such recipients out). */
  asks_to_stop: z.boolean(),
});
export type TBroadcastRecipient = z.infer<typeof ZBroadcastRecipient>;

export const ZBroadcastReportQuery = ZListQuery.extend({
  state: z.enum(RECIPIENT_STATES).optional(),
  /** '1'/'true': only those who replied; '0'/'false': only those who did not. */
  replied: z
    .enum(['0', '1', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
});
export type TBroadcastReportQuery = z.infer<typeof ZBroadcastReportQuery>;

export const ZBroadcastReport = z.object({
  broadcast: ZBroadcast,
  /** Failed recipients by error (carrier code, or our reason). */
  failed_by_reason: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  skipped_by_reason: z.array(z.object({ reason: z.enum(SKIP_REASONS), count: z.number().int() })),
  /** Deliveries over time: per bucket (ISO start), how many were sent and delivered. */
  timeline: z.array(z.object({ at: z.string(), sent: z.number().int(), delivered: z.number().int() })),
  recipients: z.array(ZBroadcastRecipient),
  meta: z.object({ total: z.number().int(), page: z.number().int(), perPage: z.number().int() }),
});
export type TBroadcastReport = z.infer<typeof ZBroadcastReport>;
export const ZBroadcastReportResponse = itemAnswerOf(ZBroadcastReport);

/** GET /v1/broadcasts/report/download?id=: the report's recipients as CSV. */
export const ZBroadcastDownloadQuery = z.object({ id: z.coerce.number().int().positive() });

/** `broadcast_progress` on /ws (business channel): a broadcast's status and counts changed. */
export const ZBroadcastProgressEvent = z.object({
  id: z.number().int(),
  status: z.enum(BROADCAST_STATUSES),
  counts: ZBroadcastCounts,
});
export type TBroadcastProgressEvent = z.infer<typeof ZBroadcastProgressEvent>;

/** Quiet hours: no broadcast text before 08:00 or from 21:00 in the recipient's own time zone. */
export const QUIET_HOURS = { start: 21, end: 8 } as const;
