import { ZContactUpdate } from './contacts.ts';
import { dataOf, listOf, ZListQuery } from './http.ts';
import { zPhone } from './users.ts';
import { z } from './zod.ts';

// Contracts of the `chats` domain: the messages of a conversation (a contact of a business), sending,
// scheduling, and the realtime events of the inbox (spec 000 §2 business area, §8; spec 001 "Chat").

export const MESSAGE_DIRECTIONS = ['in', 'out'] as const;
export type TMessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/** An outgoing text's delivery, as the carrier reports it (the carrier port names the same statuses). */
export const DELIVERY_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed'] as const;

export const MESSAGE_STATUSES = [
  'scheduled',
  ...DELIVERY_STATUSES,
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
  /** An inbound MMS's media still being fetched: `message_updated` follows with them. */
  media_pending: z.number(),
  /** An inbound MMS's media that could not be fetched from the carrier (shown as unavailable). */
  media_unavailable: z.number(),
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

/** `message_updated`: a message changed (an inbound MMS's media were fetched): the message as it is now. */
export const ZMessageUpdatedEvent = z.object({
  id: z.number(),
  contact: z.number(),
  message: ZMessage,
});
export type TMessageUpdatedEvent = z.infer<typeof ZMessageUpdatedEvent>;

/** `message_status`: an outbound message's delivery status moved. */
export const ZMessageStatusEvent = z.object({
  id: z.number(),
  contact: z.number(),
  status: z.enum(MESSAGE_STATUSES),
  error_code: z.number().nullable(),
});
export type TMessageStatusEvent = z.infer<typeof ZMessageStatusEvent>;

// ---------------------------------------------------------------------------------------------------
// The inbox API (spec 001 "Chat", /v1/chats/...): conversations of an install, one conversation's
// history (messages and calls together), and what an agent does in it (ADR 034).

/** The inbox's filter: every conversation, or by how the contact came (contacts.source). */
export const INBOX_TYPES = ['all', 'sms', 'voice', 'cms'] as const;
export type TInboxType = (typeof INBOX_TYPES)[number];

export const ZInboxQuery = ZListQuery.extend({ type: z.enum(INBOX_TYPES).default('all') });
export type TInboxQuery = z.infer<typeof ZInboxQuery>;

export const ZInstallIdParams = z.object({ installId: z.coerce.number().int().positive() });

/** The inbox answers messages as the messages core shapes them. */
export const ZInboxMedia = ZMessageMedia;
export const ZInboxMessage = ZMessage;
export type TInboxMessage = TMessage;

/** One conversation of the inbox list: the contact, its last message and the caller's unread count. */
export const ZInboxConversation = z.object({
  id: z.number(),
  install_id: z.number().nullable(),
  phone: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** first and last name, else the phone. */
  name: z.string(),
  email: z.string().nullable(),
  source: z.enum(['sms', 'voice', 'cms']),
  on_top: z.boolean(),
  agent_user_id: z.number().nullable(),
  opted_out: z.boolean(),
  blocked: z.boolean(),
  last_message_at: z.string().nullable(),
  last_message: z
    .object({
      body: z.string(),
      direction: z.enum(['in', 'out']),
      status: z.string(),
      has_media: z.boolean(),
    })
    .nullable(),
  /** The conversation's latest call (a callback, scheduled or inbound call, ADR 052), if any. */
  last_call: z.object({ id: z.number(), kind: z.string(), outcome: z.string(), at: z.string() }).nullable(),
  /** Messages in since the caller last opened the conversation. */
  unread: z.number(),
});
export type TInboxConversation = z.infer<typeof ZInboxConversation>;
export const ZInboxListResponse = listOf(ZInboxConversation);

/** GET /v1/chats/contacts/{id}: the conversation with the contact's details. */
export const ZInboxContact = ZInboxConversation.extend({
  birthday: z.string().nullable(),
  anniversary: z.string().nullable(),
  fields: z.record(z.string(), z.string()),
  created_at: z.string(),
});
export type TInboxContact = z.infer<typeof ZInboxContact>;

export const ZInboxCall = z.object({
  id: z.number(),
  kind: z.string(),
  outcome: z.string(),
  install_id: z.number().nullable(),
  agent_name: z.string().nullable(),
  duration: z.number().nullable(),
  recording_url: z.string().nullable(),
  requested_at: z.string(),
});
export type TInboxCall = z.infer<typeof ZInboxCall>;

/** The conversation history: messages and calls together, oldest first. */
export const ZConversationItem = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('message'), at: z.string(), message: ZInboxMessage }),
  z.object({ kind: z.literal('call'), at: z.string(), call: ZInboxCall }),
]);
export type TConversationItem = z.infer<typeof ZConversationItem>;

export const ZContactFile = ZInboxMedia.extend({ message_id: z.number(), sent_at: z.string() });

export const ZContactMessageParams = z.object({
  id: z.coerce.number().int().positive(),
  messageId: z.coerce.number().int().positive(),
});

/** POST /v1/chats/installs/{id}/contacts: start a conversation with a new contact. */
export const ZStartConversationInput = z.object({
  phone: zPhone(),
  name: z.string().trim().max(120).optional(),
  first_name: z.string().trim().max(60).optional(),
  last_name: z.string().trim().max(60).optional(),
});
export type TStartConversationInput = z.infer<typeof ZStartConversationInput>;

/** An image (or other MMS media) sent as a data URL. */
const zDataUrl = z
  .string()
  .max(7_000_000)
  .regex(/^data:[a-z0-9.+/-]+;base64,/i, 'validation.invalid');

/** Images one message may carry (data URLs and media library images together). */
export const MESSAGE_MAX_IMAGES = 5;

/**
 * POST /v1/chats/contacts/{id}/messages. A body, media (data URLs), `media_ids` (images of the business's
 * media library) or a template is required. With `template_id` the server fills the template's merge
 * fields for the contact (ADR 039): in the body given, or in the template's own text when the body is
 * empty. `send_at` schedules it.
 */
export const ZInboxSendInput = z
  .object({
    body: z.string().max(1600).default(''),
    media: z.array(zDataUrl).max(MESSAGE_MAX_IMAGES).default([]),
    media_ids: z.array(z.coerce.number().int().positive()).max(MESSAGE_MAX_IMAGES).default([]),
    template_id: z.coerce.number().int().positive().optional(),
    send_at: z.iso.datetime({ offset: true }).optional(),
  })
  .refine(
    (v) =>
      v.body.trim() !== '' || v.media.length > 0 || v.media_ids.length > 0 || v.template_id !== undefined,
    { path: ['body'], message: 'validation.required' },
  )
  .refine((v) => v.media.length + v.media_ids.length <= MESSAGE_MAX_IMAGES, {
    path: ['media'],
    message: 'validation.invalid',
  });
export type TInboxSendInput = z.infer<typeof ZInboxSendInput>;

export const ZMessageIdInput = z.object({ message_id: z.coerce.number().int().positive() });

export const ZContactEmailInput = z.object({
  subject: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(10_000),
});

export const ZSendIcsInput = z
  .object({
    title: z.string().trim().min(1).max(200),
    start: z.iso.datetime({ offset: true }),
    end: z.iso.datetime({ offset: true }),
    description: z.string().trim().max(2000).default(''),
    location: z.string().trim().max(200).optional(),
  })
  .refine((v) => new Date(v.end).getTime() > new Date(v.start).getTime(), {
    path: ['end'],
    message: 'validation.invalid',
  });
export type TSendIcsInput = z.infer<typeof ZSendIcsInput>;

/** PUT /v1/chats/contacts/{id}: the contact's details (through the contacts service), `name` split in two. */
export const ZInboxContactUpdate = ZContactUpdate.omit({ phone: true, install_id: true, tag_ids: true })
  .extend({ name: z.string().trim().max(201).optional() })
  .strict();
export type TInboxContactUpdate = z.infer<typeof ZInboxContactUpdate>;
