import { z } from 'zod';
import { defineEvent } from '../../platform/events/events.ts';

/** What every call event says: which call, whose, on which install, and the visitor's (caller's) phone. */
const ZCallEvent = z.object({
  callId: z.number(),
  agencyId: z.number(),
  businessId: z.number(),
  installId: z.number(),
  visitorPhone: z.string(),
});

/** Nobody claimed a callback in time: automations and notifications listen for it. */
export const callMissed = defineEvent(
  'call.missed',
  ZCallEvent.extend({ visitorName: z.string().nullable() }),
);

/**
 * A call ended completed: the visitor and a staff phone talked (a callback, a scheduled call, or an
 * inbound call someone took). Published after the commit that marked it, once per call: automations
 * listen for it (the completed-call trigger).
 */
export const callCompleted = defineEvent(
  'call.completed',
  ZCallEvent.extend({ visitorName: z.string().nullable(), duration: z.number().nullable() }),
);

/**
 * A callback or a scheduled call was asked for (published after commit, ADR 052): the inbox puts it in
 * the conversation with the visitor's phone. Its outcome is read from the call when shown.
 */
export const callRequested = defineEvent(
  'call.requested',
  ZCallEvent.extend({
    kind: z.enum(['callback', 'scheduled']),
    visitorName: z.string().nullable(),
    visitorEmail: z.string().nullable(),
  }),
);

/**
 * A number was bought, assigned, moved, released or changed (its install or texting switch): who answers
 * it may have changed. Published after commit in the process that changed it; chats forgets what it
 * cached about the number (other processes see it within their cache's few seconds).
 */
export const numberChanged = defineEvent('number.changed', z.object({ phoneNumbers: z.array(z.string()) }));

/**
 * A caller phoned an install's number (published once the inbound call is written, ADR 052): the inbox
 * puts the call in the caller's conversation, answered or not. Its outcome is read from the call.
 */
export const callReceived = defineEvent('call.received', ZCallEvent);

/**
 * A voicemail was stored (published after the commit that wrote it, once per recording): the staff's
 * notifications listen for it (ADR 082).
 */
export const voicemailRecorded = defineEvent(
  'voicemail.recorded',
  ZCallEvent.extend({
    voiceRecordId: z.number(),
    visitorName: z.string().nullable(),
    duration: z.number(),
  }),
);

/**
 * A call in progress moved (opened, claimed, connected, ended): the live view of calls ringing and in
 * progress (the live module, ADR 083) is out of date. Published after commit, possibly more than once per
 * move (listeners debounce); says nothing of what changed.
 */
export const callChanged = defineEvent(
  'call.changed',
  z.object({ callId: z.number(), agencyId: z.number(), businessId: z.number() }),
);
