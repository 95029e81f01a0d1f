// A broadcast's audience (ADR 061): the contacts module's audience query, then who is skipped and why, and
// the number each recipient is sent from. One pass in memory over one query's rows (10,000 contacts in
// well under a second), shared by the live count (`countAudience`) and the snapshot.
import type { TBroadcastAudience, TSkipReason } from '@stn/contracts/broadcasts';
import { BROADCASTER_RATES, type TBroadcasterKind } from '@stn/contracts/broadcasts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { timeZoneOfPhone } from '../../platform/phone-time-zone.ts';
import { type Ctx, scope } from '../../platform/tenancy/context.ts';
import { businessTimeZone } from '../businesses/service.ts';
import { blockedAmong, reachRule } from '../compliance/service.ts';
import { audienceContacts } from '../contacts/service.ts';
import { installTextNumber } from '../telephony/service.ts';
import { broadcasters } from './tables.ts';

/** A sending number of a broadcast: a broadcaster, or (none chosen or active) an install's number. */
export type Sender = { broadcasterId: number | null; phone: string; rate: number };

export type AudienceRow = {
  contactId: number;
  phone: string;
  name: string;
  installId: number | null;
  timeZone: string;
  skip: TSkipReason | null;
  sender: Sender | null;
};

const INSTALL_NUMBER_RATE = BROADCASTER_RATES.long_code;

/** The broadcast's senders: its chosen broadcasters that are active, else every active one of the business. */
export async function sendersOf(ctx: Ctx, broadcasterIds: number[]): Promise<Sender[]> {
  const rows = await ctx.db
    .select()
    .from(broadcasters)
    .where(
      scope(
        ctx,
        broadcasters,
        and(
          eq(broadcasters.active, true),
          broadcasterIds.length ? inArray(broadcasters.id, broadcasterIds) : undefined,
        ),
      ),
    )
    .orderBy(asc(broadcasters.id));
  return rows.map((b) => ({
    broadcasterId: b.id,
    phone: b.phone_number,
    rate: b.custom_rate ?? BROADCASTER_RATES[b.kind as TBroadcasterKind] ?? INSTALL_NUMBER_RATE,
  }));
}

const zones = new Map<string, boolean>();
/** Whether PostgreSQL and Intl know this IANA zone (a contact's own may be anything). */
export function knownZone(zone: string | null | undefined): zone is string {
  if (!zone) return false;
  let ok = zones.get(zone);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      ok = /^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)*$/.test(zone) || zone === 'UTC';
    } catch {
      ok = false;
    }
    zones.set(zone, ok);
  }
  return ok;
}

/**
 * Every audience member with its skip reason (null: sent to), its time zone and its sending number, in
 * contact order; recipients spread over the senders in turn.
 */
export async function resolveAudience(
  ctx: Ctx,
  audience: TBroadcastAudience,
  senders: Sender[],
): Promise<AudienceRow[]> {
  const contacts = await audienceContacts(ctx, audience);
  if (contacts.length === 0) return [];
  const blocked = new Set<string>();
  const phones = contacts.map((c) => c.phone);
  for (let i = 0; i < phones.length; i += 20_000)
    for (const p of await blockedAmong(ctx, phones.slice(i, i + 20_000))) blocked.add(p);
  const reach = await reachRule(ctx);
  const businessZone = await businessTimeZone(ctx);
  const installNumbers = new Map<number, string | null>();
  if (senders.length === 0)
    for (const id of new Set(contacts.map((c) => c.install_id).filter((i): i is number => i !== null)))
      installNumbers.set(id, await installTextNumber(ctx, id));
  const seen = new Set<string>();
  let turn = 0;
  return contacts.map((c) => {
    let skip: TSkipReason | null = null;
    if (c.opted_out) skip = 'opted_out';
    else if (c.blocked) skip = 'blocked';
    else if (blocked.has(c.phone)) skip = 'blacklisted';
    else if (reach(c.phone, 'text')) skip = 'unreachable';
    else if (seen.has(c.phone)) skip = 'duplicate';
    seen.add(c.phone);
    let sender: Sender | null = null;
    if (senders.length > 0) sender = skip ? null : (senders[turn++ % senders.length] ?? null);
    else {
      const phone = c.install_id === null ? null : (installNumbers.get(c.install_id) ?? null);
      sender = phone ? { broadcasterId: null, phone, rate: INSTALL_NUMBER_RATE } : null;
    }
    if (!skip && !sender) skip = 'no_number';
    const own = knownZone(c.time_zone) ? c.time_zone : null;
    const byPhone = own ? null : timeZoneOfPhone(c.phone);
    return {
      contactId: c.id,
      phone: c.phone,
      name: c.name,
      installId: c.install_id,
      timeZone: own ?? (knownZone(byPhone) ? byPhone : businessZone),
      skip,
      sender: skip ? null : sender,
    };
  });
}

export type AudienceCount = {
  recipients: number;
  skipped: number;
  reasons: Partial<Record<TSkipReason, number>>;
};

export function countRows(rows: AudienceRow[]): AudienceCount {
  const reasons: Partial<Record<TSkipReason, number>> = {};
  let recipients = 0;
  for (const r of rows) {
    if (r.skip) reasons[r.skip] = (reasons[r.skip] ?? 0) + 1;
    else recipients++;
  }
  return { recipients, skipped: rows.length - recipients, reasons };
}

/** The audience's size now: who would be sent to (from the business's active broadcasters), who skipped and why. */
export async function countAudience(ctx: Ctx, audience: TBroadcastAudience): Promise<AudienceCount> {
  return countRows(await resolveAudience(ctx, audience, await sendersOf(ctx, [])));
}
