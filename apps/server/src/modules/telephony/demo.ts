import type { Ctx } from '../../platform/tenancy/context.ts';
import { numbers } from './tables.ts';

/** The demo install's number (a Twilio test number; the sandbox carrier treats it as bought). */
export const DEMO_INSTALL_NUMBER = '+15005550006';

/** Gives a demo install a purchased number, as buying one through the numbers screen would. */
export async function addDemoNumber(
  ctx: Ctx,
  input: { agencyId: number; businessId: number; installId: number; phoneNumber: string },
): Promise<void> {
  await ctx.db
    .insert(numbers)
    .values({
      agency_id: input.agencyId,
      business_id: input.businessId,
      install_id: input.installId,
      phone_number: input.phoneNumber,
      friendly_name: 'Demo number',
      kind: 'purchased',
      verified: true,
    })
    .onConflictDoNothing();
}
