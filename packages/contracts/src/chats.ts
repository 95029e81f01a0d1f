import { dataOf, listOf } from './http.ts';
import { z } from './zod.ts';

// Contracts of the `chats` domain: the messages of a conversation (a contact of a business), sending,
// scheduling, and the realtime events of the inbox (spec 000 §2 business area, §8; spec 001 "Chat").

export const MESSAGE_DIRECTIONS = ['in', 'out'] as const;
export type TMessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

export const MESSAGE_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'sent',
  'delivered',
  'undelivered',
  'failed',
  'received',
  'canceled',
  'refused',
] as const;
export type TMessageStatus = (typeof MESSAGE_STATUSES)[number];

export const ZMessageMedia = z.object({
  url: z.string(),
  content_type: z.string(),
  size: z.number(),
  name: z.string(),
});
export type TMessageMedia = z.infer<typeof ZMessageMedia>;

export const ZMessage = z.object({
  id: z.number(),
  contact_id: z.number(),
  install_id: z.number().nullable(),
  direction: z.enum(MESSAGE_DIRECTIONS),
  body: z.string(),
  media: z.array(ZMessageMedia),
  status: z.enum(MESSAGE_STATUSES),
  error_code: z.number().nullable(),
  error_message: z.string().nullable(),
  from_number: z.string(),
  to_number: z.string(),
  /** Messages counted against the monthly limit (spec 000 §4). */
  segments: z.number(),
  /** The carrier's time of the message: conversations are ordered by it. */
  sent_at: z.string(),
  /** A scheduled message's time. */
  send_at: z.string().nullable(),
  user_id: z.number().nullable(),
  created_at: z.string(),
});
export type TMessage = z.infer<typeof ZMessage>;
export const ZMessageResponse = dataOf(ZMessage);
export const ZMessageListResponse = listOf(ZMessage);

/** An image sent with a message: a data URL (png, jpg, gif, webp) or a media-library URL of ours. */
export const ZSendMedia = z.string().min(1).max(8_000_000);

export const ZSendMessageRequest = z.object({
  contact_id: z.number().int().positive(),
  body: z.string().max(1600).default(''),
  media: z.array(ZSendMedia).max(10).optional(),
  template_id: z.number().int().positive().optional(),
  /** ISO time: schedule the message instead of sending now. */
  send_at: z.string().datetime({ offset: true }).optional(),
});
export type TSendMessageRequest = z.infer<typeof ZSendMessageRequest>;

/** The 422 reason of a send stopped for its content; `data.preview` is the filtered text (spec 000 §8 modal). */
export const RESTRICTED_CONTENT_REASON = 'messages.restricted_content';
export const ZRestrictedContent = z.object({ preview: z.string(), categories: z.array(z.string()) });
export type TRestrictedContent = z.infer<typeof ZRestrictedContent>;

/** The message counter of spec 000 §4: ceil(length / 160); with images 3 outgoing, 2 incoming. */
export function messageCount(direction: TMessageDirection, body: string, mediaCount: number): number {
  if (mediaCount > 0) return direction === 'out' ? 3 : 2;
  return Math.max(1, Math.ceil(body.length / 160));
}

/** Keywords of the carrier rules (CTIA): opt out, opt back in, help. Compared trimmed, case-insensitive. */
export const STOP_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'];
export const START_KEYWORDS = ['START', 'YES', 'UNSTOP'];
export const HELP_KEYWORDS = ['HELP', 'INFO'];

// ---------------------------------------------------------------- realtime (/ws)

/** `new_message`: a message came in (spec 001 realtime). */
export const ZNewMessageEvent = z.object({
  contact: z.number(),
  install: z.number().nullable(),
  number_of_messages: z.number(),
  message: ZMessage.optional(),
});
export type TNewMessageEvent = z.infer<typeof ZNewMessageEvent>;

/** `message_status`: an outbound message's delivery status moved. */
export const ZMessageStatusEvent = z.object({
  id: z.number(),
  contact: z.number(),
  status: z.enum(MESSAGE_STATUSES),
  error_code: z.number().nullable(),
});
export type TMessageStatusEvent = z.infer<typeof ZMessageStatusEvent>;
