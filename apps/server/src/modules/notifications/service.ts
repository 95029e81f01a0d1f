// What other modules may use of the notifications module (rank 0): the staff alert event. A module that
// wants staff told (an automation's Alert, ADR 071) publishes it; the modules that reach people (push, of a
// higher rank) listen to it, so the publisher needs none of them.
import { z } from 'zod';
import { defineEvent } from '../../platform/events/events.ts';

/** Tell these users of the business something now: each channel that listens delivers it (push). */
export const staffAlerted = defineEvent(
  'notifications.staff_alerted',
  z.object({
    agencyId: z.number(),
    businessId: z.number(),
    userIds: z.array(z.number()),
    title: z.string(),
    body: z.string(),
    /** The page the notification opens. */
    url: z.string(),
    /** Notifications of one tag replace each other. */
    tag: z.string().optional(),
  }),
);
