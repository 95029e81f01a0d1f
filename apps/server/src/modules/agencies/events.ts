import { z } from 'zod';
import { defineEvent } from '../../platform/events/events.ts';

/**
 * An agency's or a business's carrier account was set or changed (ADR 093): telephony forgets the
 * accounts it keeps for a few seconds, so the next call or text goes through the new one at once.
 */
export const carrierAccountChanged = defineEvent(
  'carrier_account.changed',
  z.object({ agencyId: z.number(), businessId: z.number().nullable() }),
);
