// What the call engine reads about a business before it calls anyone: the install (settings merged onto
// the defaults), its carrier number, the staff to ring, and the agency's carrier. Internal to the module.
import {
  clockMinutes,
  closingMinutes,
  localParts,
  type TInstallSettings,
  type TWeekday,
  WEEKDAYS,
} from '@stn/contracts/installs';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Carrier } from '../../platform/carrier/carrier.ts';
import type { Config } from '../../platform/config.ts';
import { selectValues } from '../../platform/db/select-values.ts';
import type { Deps } from '../../platform/deps.ts';
import { AppError } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, type Tenant } from '../../platform/tenancy/context.ts';
import { carrierAccountChanged, carrierAccountFor } from '../agencies/service.ts';
import { installForCalls as installsInstallForCalls } from '../installs/service.ts';
import { departmentVoiceAgents } from '../users/service.ts';
import { numbers } from './tables.ts';

export type CallInstall = {
  id: number;
  name: string;
  agencyId: number;
  businessId: number;
  status: 'active' | 'archived' | 'deleted';
  active: boolean;
  settings: TInstallSettings;
};

/** A staff phone rung for a callback. */
export type Staff = { userId: number | null; name: string; phone: string };

/**
 * The context business's install, for calls (the installs module's read: settings merged onto the
 * defaults).
 */
export async function installForCalls(ctx: Ctx, installId: number): Promise<CallInstall | null> {
  return installsInstallForCalls(ctx, installId);
}

/**
 * The install's live (unreleased) number that also meets `where` (E.164), or null: the first by `order`,
 * then the newest.
 */
export async function liveInstallNumber(
  ctx: Ctx,
  installId: number,
  where: SQL[],
  order: SQL[] = [],
): Promise<string | null> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ phone: numbers.phone_number })
    .from(numbers)
    .where(and(...liveNumberOf(businessId, installId), ...where))
    .orderBy(...order, desc(numbers.id))
    .limit(1);
  return row?.phone ?? null;
}

/** An install's live (unreleased) numbers: the conditions, with values or placeholders. */
const liveNumberOf = (business: number | SQL, install: number | SQL) => [
  eq(numbers.business_id, business),
  eq(numbers.install_id, install),
  isNull(numbers.released_at),
];

/**
 * The install's carrier number (E.164) the calls come from, as a subquery (a callback's checks are one
 * statement): its newest live purchased number, or null.
 */
export function installNumberSql(ctx: Ctx, installId: number): SQL<string | null> {
  return installNumberOfSql(businessOf(ctx).businessId, installId);
}

/** installNumberSql of a business and an install given as values or slots (a statement built once). */
export function installNumberOfSql(business: number | SQL, install: number | SQL): SQL<string | null> {
  const live = and(...liveNumberOf(business, install), eq(numbers.kind, 'purchased'));
  return sql`(select ${numbers.phone_number} from ${numbers} where ${live}
    order by ${numbers.id} desc limit 1)`;
}

/** The install's carrier number (E.164) the calls come from, or null. */
export async function installNumber(ctx: Ctx, installId: number): Promise<string | null> {
  const { phone } = await selectValues(ctx.db, { phone: installNumberSql(ctx, installId) });
  return typeof phone === 'string' ? phone : null;
}

/**
 * Who is rung: the voice agents (with a phone) of the chosen department when the install routes by
 * department, else the install's phone agents. At most 10, each phone once.
 */
export async function staffFor(ctx: Ctx, install: CallInstall, departmentId?: number): Promise<Staff[]> {
  const s = install.settings;
  let staff: Staff[];
  if (s.department_enabled && departmentId !== undefined) {
    if (!s.departments.includes(departmentId))
      throw new AppError('VALIDATION', undefined, { department_id: 'validation.invalid' });
    const agents = await departmentVoiceAgents(ctx, { businessId: install.businessId, departmentId });
    staff = agents.map((a) => ({ userId: a.id, name: a.name, phone: a.phone }));
  } else {
    staff = s.phoneAgents.map((a) => ({ userId: a.user_id, name: a.name, phone: a.phone }));
  }
  const seen = new Set<string>();
  return staff.filter((a) => a.phone && !seen.has(a.phone) && seen.add(a.phone)).slice(0, 10);
}

/**
 * The carrier of the context: a business's own account when it has one (ADR 093), else its agency's Twilio
 * account or sandbox account.
 */
export async function carrierFor(ctx: Ctx): Promise<Carrier> {
  if (ctx.tenant.level === 'platform') throw new AppError('FORBIDDEN');
  return carrierOf(ctx.deps, await accountEntry(ctx.deps, ctx.tenant));
}

/**
 * The carrier of the context (carrierFor), or null when it has no carrier account. Anything else that goes
 * wrong (the database, a token that does not open, the sandbox switched off) throws: it says nothing about
 * the agency's calls (the call reconciler, ADR 051).
 */
export async function carrierIfAny(ctx: Ctx): Promise<Carrier | null> {
  if (ctx.tenant.level === 'platform') throw new AppError('FORBIDDEN');
  const entry = await accountEntry(ctx.deps, ctx.tenant);
  if (!entry.account) return null;
  return carrierOf(ctx.deps, entry);
}

/**
 * A carrier account is read once every few seconds, not for every leg and webhook of a call: per agency
 * for an agency's context, per business for a business's (its own account, else the agency's). A change
 * of account (carrierAccountChanged) empties the cache at once.
 */
const ACCOUNT_TTL_MS = 5_000;
type Account = { accountSid: string; authToken: string; sandbox: boolean };
type Entry = { account: Account | null; carrier: Carrier | null; at: number };
const accounts = new WeakMap<Deps, Map<string, Entry>>();

async function accountEntry(deps: Deps, tenant: Exclude<Tenant, { level: 'platform' }>): Promise<Entry> {
  let cache = accounts.get(deps);
  if (!cache) {
    const fresh = new Map<string, Entry>();
    cache = fresh;
    accounts.set(deps, fresh);
    deps.events.on(carrierAccountChanged, () => fresh.clear());
  }
  const businessId = tenant.level === 'business' ? tenant.businessId : null;
  const key = businessId === null ? `a${tenant.agencyId}` : `b${businessId}`;
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < ACCOUNT_TTL_MS) return hit;
  const account = await carrierAccountFor(deps, { agencyId: tenant.agencyId, businessId });
  const entry = { account, carrier: null as Carrier | null, at: Date.now() };
  if (cache.size > 10_000) cache.clear();
  cache.set(key, entry);
  return entry;
}

/**
 * The carrier account of the context (a business's own, else its agency's; cached a few seconds), or null
 * without a telephony setup.
 */
export async function carrierAccountOf(ctx: Ctx): Promise<Account | null> {
  if (ctx.tenant.level === 'platform') throw new AppError('FORBIDDEN');
  return (await accountEntry(ctx.deps, ctx.tenant)).account;
}

function carrierOf(deps: Deps, entry: Entry): Carrier {
  if (!entry.account) throw new AppError('VALIDATION', 'calls.no_carrier');
  // An account still on the sandbox while this server runs without it (CARRIER_SANDBOX=false): nothing can
  // be dialled or texted, so every caller refuses before it writes or promises anything (issue 17).
  if (entry.account.sandbox && !deps.carrier.sandboxOn)
    throw new AppError('VALIDATION', 'calls.sandbox_off', undefined, {}, 'calls.sandbox_off');
  entry.carrier ??= deps.carrier.forAccount(entry.account);
  return entry.carrier;
}

/** Where the carrier reaches our webhooks: the public URL, without a trailing slash. */
export function publicBase(config: Pick<Config, 'publicUrl'>): string {
  return config.publicUrl.toString().replace(/\/+$/, '');
}

// ---------------------------------------------------------------- opening hours

const DAY_MS = 86_400_000;

/** Minutes the zone is ahead of UTC at an instant. */
function offsetMinutes(at: Date, timezone: string): number {
  const whole = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  const p = localParts(whole, timezone);
  const [y, m, d] = p.date.split('-').map(Number) as [number, number, number];
  return Math.round((Date.UTC(y, m - 1, d, 0, p.minutes) - whole.getTime()) / 60_000);
}

/** The instant of a wall-clock time (date YYYY-MM-DD, minutes after midnight) in a zone. */
function zonedInstant(date: string, minutes: number, timezone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, 0, minutes);
  let at = wall;
  for (let i = 0; i < 3; i++) at = wall - offsetMinutes(new Date(at), timezone) * 60_000;
  return new Date(at);
}

/** ISO 8601 with the zone's offset, e.g. 2026-01-05T08:00:00-05:00. */
export function isoInZone(at: Date, timezone: string): string {
  const off = offsetMinutes(at, timezone);
  const local = new Date(at.getTime() + off * 60_000).toISOString().slice(0, 19);
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The next `count` openings (the start of each open day's hours) after `now`, in the install's zone. */
export function nextOpenSlots(
  settings: Pick<TInstallSettings, 'hours' | 'timezone'>,
  now: Date,
  count = 3,
): string[] {
  const today = localParts(now, settings.timezone).date;
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const out: string[] = [];
  for (let i = 0; i < 29 && out.length < count; i++) {
    const day = new Date(Date.UTC(y, m - 1, d) + i * DAY_MS);
    const date = day.toISOString().slice(0, 10);
    const weekday = WEEKDAYS[(day.getUTCDay() + 6) % 7] as TWeekday;
    const hours = settings.hours[weekday];
    if (!hours.open) continue;
    const start = zonedInstant(date, clockMinutes(hours.from), settings.timezone);
    if (start.getTime() > now.getTime()) out.push(isoInZone(start, settings.timezone));
  }
  return out;
}

/** The step between bookable times, and how soon the first one may be. */
const SLOT_STEP_MIN = 30;
const SLOT_LEAD_MS = 30 * 60_000;
export const MAX_SLOT_DAYS = 14;

/**
 * The bookable times of the next `days` days (at most 14), as ISO instants with the zone's offset: every
 * 30 minutes of wall-clock time inside each weekday's hours in the install's zone, the first at least 30
 * minutes from now. Wall-clock times a DST change skips are left out; a repeated hour is offered once.
 */
export function bookableSlots(
  settings: Pick<TInstallSettings, 'hours' | 'timezone'>,
  now: Date,
  days: number,
): string[] {
  const span = Math.max(1, Math.min(MAX_SLOT_DAYS, Math.floor(days)));
  const earliest = now.getTime() + SLOT_LEAD_MS;
  const until = now.getTime() + span * DAY_MS;
  const today = localParts(now, settings.timezone).date;
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const out: string[] = [];
  const seen = new Set<number>();
  for (let i = 0; i <= span; i++) {
    const day = new Date(Date.UTC(y, m - 1, d) + i * DAY_MS);
    const date = day.toISOString().slice(0, 10);
    const weekday = WEEKDAYS[(day.getUTCDay() + 6) % 7] as TWeekday;
    const hours = settings.hours[weekday];
    if (!hours.open) continue;
    const from = clockMinutes(hours.from);
    const to = closingMinutes(hours.to);
    for (
      let minutes = Math.ceil(from / SLOT_STEP_MIN) * SLOT_STEP_MIN;
      minutes < to;
      minutes += SLOT_STEP_MIN
    ) {
      const at = zonedInstant(date, minutes, settings.timezone);
      const t = at.getTime();
      if (t < earliest || t >= until || seen.has(t)) continue;
      // A wall-clock time that does not exist that day (spring forward) lands elsewhere: not offered.
      const local = localParts(at, settings.timezone);
      if (local.date !== date || local.minutes !== minutes) continue;
      seen.add(t);
      out.push(isoInZone(at, settings.timezone));
    }
  }
  return out;
}
