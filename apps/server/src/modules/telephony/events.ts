import { z } from 'zod';
import { defineEvent } from '../../platform/events/events.ts';

/** Nobody claimed a callback in time: automations and notifications listen for it. */
export const callMissed = defineEvent(
  'call.missed',
  z.object({
    callId: z.number(),
    agencyId: z.number(),
    businessId: z.number(),
    installId: z.number(),
    visitorPhone: z.string(),
    visitorName: z.string().nullable(),
  }),
);
