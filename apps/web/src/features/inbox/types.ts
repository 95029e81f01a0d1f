// The inbox API's shapes as the web app reads them (spec 001 "Chat"; ADR 034 defines them in
// @stn/contracts/chats). Kept here as the fields this screen uses, so the screen builds on its own.

export const INBOX_TYPES = ['all', 'sms', 'voice', 'cms'] as const;
export type InboxType = (typeof INBOX_TYPES)[number];

export type InboxMedia = { url: string; content_type: string; size: number; name: string };

export type InboxMessage = {
  id: number;
  contact_id: number;
  install_id: number | null;
  direction: 'in' | 'out';
  body: string;
  media: InboxMedia[];
  /** An inbound MMS's media still being fetched (message_updated follows), and those the carrier did not give. */
  media_pending?: number;
  media_unavailable?: number;
  /** scheduled, queued, sending, sent, delivered, undelivered, failed, received, canceled, refused. */
  status: string;
  error_code: number | null;
  error_message: string | null;
  segments: number;
  sent_at: string;
  send_at: string | null;
  created_at: string;
};

export type InboxConversation = {
  id: number;
  install_id: number | null;
  phone: string;
  first_name: string;
  last_name: string;
  name: string;
  email: string | null;
  source: 'sms' | 'voice' | 'cms';
  on_top: boolean;
  agent_user_id: number | null;
  opted_out: boolean;
  blocked: boolean;
  last_message_at: string | null;
  last_message: { body: string; direction: 'in' | 'out'; status: string; has_media: boolean } | null;
  /** The latest call (callback, scheduled, inbound) of the conversation, ADR 052. */
  last_call?: { id: number; kind: string; outcome: string; at: string } | null;
  unread: number;
};

export type InboxContact = InboxConversation & {
  birthday?: string | null;
  fields?: Record<string, string>;
};

export type InboxCall = {
  id: number;
  kind: string;
  outcome: string;
  agent_name: string | null;
  duration: number | null;
  requested_at: string;
};

export type ConversationItem =
  | { kind: 'message'; at: string; message: InboxMessage }
  | { kind: 'call'; at: string; call: InboxCall };

export type Template = { id: number; name: string; body: string; active?: boolean };

export type Paged<T> = {
  data: T[];
  meta?: { total?: number; page?: number; perPage?: number; last_page?: number };
};
