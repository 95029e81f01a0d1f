// The sandbox carrier keeps its accounts and numbers in memory: at start, the numbers the database says a
// sandbox agency owns are put back (same URLs as a purchase sets), so that calls and texts to them reach
// the product after a restart, and the seeded demo number answers on `npm start`.
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { type Ctx, platformOnly } from '../../platform/tenancy/context.ts';
import { carrierAccountFor } from '../agencies/service.ts';
import { publicBase } from './access.ts';
import { numbers } from './tables.ts';

/**
 * The sandbox's sid of a purchased number: the carrier's, else (a seeded number) one derived from the
 * agency and the number, the same at every start.
 */
export function sandboxNumberSid(n: {
  agency_id: number;
  phone_number: string;
  carrier_sid: string | null;
}): string {
  return n.carrier_sid && /^PN[0-9a-f]{32}$/i.test(n.carrier_sid)
    ? n.carrier_sid
    : `PN${crypto.createHash('sha256').update(`${n.agency_id}:${n.phone_number}`).digest('hex').slice(0, 32)}`;
}

/** At start, in a platform context: every sandbox agency's purchased numbers. */
export async function restoreSandboxNumbers(ctx: Ctx): Promise<number> {
  platformOnly(ctx);
  const { deps } = ctx;
  const sandbox = deps.carrier.sandbox;
  if (!sandbox) return 0;
  const rows = await ctx.db
    .select()
    .from(numbers)
    .where(and(eq(numbers.kind, 'purchased'), isNull(numbers.released_at)));
  const base = publicBase(deps.config);
  let restored = 0;
  for (const n of rows) {
    const account = await carrierAccountFor(deps, { agencyId: n.agency_id, businessId: n.business_id }).catch(
      () => null,
    );
    if (!account?.sandbox) continue;
    sandbox.ensureAccount({ sid: account.accountSid, authToken: account.authToken });
    sandbox.restoreIncomingNumber(account.accountSid, {
      sid: sandboxNumberSid(n),
      phoneNumber: n.phone_number,
      voiceUrl: `${base}/webhooks/twilio/voice`,
      smsUrl: `${base}/webhooks/twilio/sms-in`,
    });
    restored++;
  }
  return restored;
}
