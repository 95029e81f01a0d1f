import { z } from 'zod';
import { defineEvent } from '../../platform/events/events.ts';

/** Every message event names the message and whose it is. */
const messageKeys = {
  messageId: z.number(),
  agencyId: z.number(),
  businessId: z.number(),
  contactId: z.number(),
};

/** A text came in (published after commit): realtime, automations and notifications listen for it. */
export const messageReceived = defineEvent(
  'message.received',
  z.object({
    ...messageKeys,
    installId: z.number().nullable(),
    /** The first message of a new contact. */
    newContact: z.boolean(),
    keyword: z.enum(['stop', 'start', 'help']).nullable(),
    /** The text as received (automations' sms-keyword trigger matches it). */
    body: z.string(),
  }),
);

/** An outgoing text's delivery status moved forward. */
export const messageStatusChanged = defineEvent(
  'message.status',
  z.object({
    ...messageKeys,
    status: z.string(),
    errorCode: z.number().nullable(),
  }),
);

/**
 * The business sent a text to a contact (published after the commit that stored it, before the carrier's
 * first status): the website widget's stream shows it to the visitor whose conversation it is.
 */
export const messageSent = defineEvent(
  'message.sent',
  z.object({
    ...messageKeys,
    installId: z.number().nullable(),
  }),
);

/** A message changed after it was announced (an inbound MMS's media were fetched and attached). */
export const messageUpdated = defineEvent(
  'message.updated',
  z.object({
    ...messageKeys,
  }),
);
