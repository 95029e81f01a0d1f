// What texting (the chats module, issue 10) reads of telephony's numbers: the number an inbound text
// reached and the number an install texts from.

import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { type Ctx, platformOnly, tenantContext } from '../../platform/tenancy/context.ts';
import { carrierAccountOf, liveInstallNumber } from './access.ts';
import { numbers } from './tables.ts';

export { carrierAccountOf };
/**
 * The live number (purchased or landline) an inbound text reached, of a business whose carrier account (its
 * own, else its agency's: ADR 093) the webhook named; null when no business of that account has it. `carrier`: the carrier's platform
 * context (the number names the tenant).
 */
export async function numberTexted(
  carrier: Ctx,
  input: { to: string; accountSid: string },
): Promise<{ agencyId: number; businessId: number; installId: number | null } | null> {
  platformOnly(carrier);
  const rows = await carrier.db
    .select({
      agency_id: numbers.agency_id,
      business_id: numbers.business_id,
      install_id: numbers.install_id,
    })
    .from(numbers)
    .where(
      and(
        eq(numbers.phone_number, input.to),
        inArray(numbers.kind, ['purchased', 'landline']),
        isNull(numbers.released_at),
      ),
    )
    // A number with an install first, then purchased before landline.
    .orderBy(sql`${numbers.install_id} is null`, asc(numbers.kind), desc(numbers.id));
  for (const n of rows) {
    const business = tenantContext(
      carrier.deps,
      { level: 'business', agencyId: n.agency_id, businessId: n.business_id },
      { kind: 'system', source: 'carrier', name: 'number texted' },
    );
    const account = await carrierAccountOf(business);
    if (account?.accountSid === input.accountSid)
      return { agencyId: n.agency_id, businessId: n.business_id, installId: n.install_id };
  }
  return null;
}

/** The number the install texts from: its purchased number, else its landline; null without one. */
export const installTextNumber = (ctx: Ctx, installId: number): Promise<string | null> =>
  liveInstallNumber(
    ctx,
    installId,
    [inArray(numbers.kind, ['purchased', 'landline']), eq(numbers.sms_enabled, true)],
    [asc(numbers.kind)],
  );
