// The sandbox carrier keeps its accounts and numbers in memory: at start, the numbers the database says a
// sandbox agency owns are put back (same URLs as a purchase sets), so that calls and texts to them reach
// the product after a restart, and the seeded demo number answers on `npm start`.
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { publicBase } from './access.ts';
import { numbers } from './tables.ts';

export async function restoreSandboxNumbers(deps: Deps): Promise<number> {
  const sandbox = deps.carrier.sandbox;
  if (!sandbox) return 0;
  const rows = await deps.db
    .select()
    .from(numbers)
    .where(and(eq(numbers.kind, 'purchased'), isNull(numbers.released_at)));
  const base = publicBase(deps);
  let restored = 0;
  for (const n of rows) {
    const account = await agencyCarrierAccount(deps, n.agency_id).catch(() => null);
    if (!account?.sandbox) continue;
    sandbox.ensureAccount({ sid: account.accountSid, authToken: account.authToken });
    const sid =
      n.carrier_sid && /^PN[0-9a-f]{32}$/i.test(n.carrier_sid)
        ? n.carrier_sid
        : `PN${crypto.createHash('sha256').update(`${n.agency_id}:${n.phone_number}`).digest('hex').slice(0, 32)}`;
    sandbox.restoreIncomingNumber(account.accountSid, {
      sid,
      phoneNumber: n.phone_number,
      voiceUrl: `${base}/webhooks/twilio/voice`,
      smsUrl: `${base}/webhooks/twilio/sms-in`,
    });
    restored++;
  }
  return restored;
}
