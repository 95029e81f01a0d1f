import { z } from 'zod';
import { defineEvent } from '../../platform/events/events.ts';

// The contacts module's domain events (published after commit, ADR 015); other modules read them through
// ./service.ts. The automations issue listens to them (its "new-tag" trigger, "add to automation").

/** A tag was added to a contact (one event per contact and tag newly added; a tag it had already is not). */
export const contactTagged = defineEvent(
  'contact.tagged',
  z.object({
    agencyId: z.number(),
    businessId: z.number(),
    contactId: z.number(),
    tagId: z.number(),
  }),
);

/** A contact was added to an automation (one event per contact newly recorded in it). */
export const contactAutomationAdded = defineEvent(
  'contact.automation_added',
  z.object({
    agencyId: z.number(),
    businessId: z.number(),
    contactId: z.number(),
    automationId: z.number(),
  }),
);

/** A contact was created (by hand, an import row aside, a first text, call or lead): Zapier's trigger listens. */
export const contactCreated = defineEvent(
  'contact.created',
  z.object({
    agencyId: z.number(),
    businessId: z.number(),
    contactId: z.number(),
  }),
);
