import { z } from 'zod';
import { defineEvent } from '../../platform/events/events.ts';

// The leadforms module's domain events (published after commit, ADR 015); other modules read them through
// ./service.ts. Automations and, later, integrations (Zapier) listen.

/** A visitor sent a lead form: the contact was found or created, tagged, and the submission stored. */
export const leadSubmitted = defineEvent(
  'lead.submitted',
  z.object({
    agencyId: z.number(),
    businessId: z.number(),
    contactId: z.number(),
    submissionId: z.number(),
    leadFormId: z.number(),
    installId: z.number().nullable(),
  }),
);
