import type {
  TAvailableNumber,
  TNumber,
  TNumberCreate,
  TNumberSearch,
  TNumberUpdate,
} from '@stn/contracts/telephony';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { actorCan } from '../../platform/auth/actor.ts';
import { type Carrier, CarrierError, type IncomingNumberInput } from '../../platform/carrier/carrier.ts';
import type { Deps } from '../../platform/deps.ts';
import { publish } from '../../platform/events/events.ts';
import { AppError, forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import {
  businessOf,
  type Ctx,
  inTransaction,
  platformOnly,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { carrierFor } from './access.ts';
import { numberChanged } from './events.ts';
import { installOf, ownerOfAccount, setInstallLandline } from './numbers-links.ts';
import {
  findNumber,
  type NumberRow,
  numberByPhone,
  numberOfInstall,
  presentNumber,
  presentNumbers,
} from './numbers-queries.ts';
import { numbers } from './tables.ts';

// The business's numbers (spec 001 "Installs" number calls and /v1/numbers): numbers bought from the
// agency's carrier account and assigned to an install (one per install), the install's own landline for
// texting, and caller ids verified with the carrier's validation call. Numbers are E.164 throughout; the
// carrier is the agency's (its own Twilio account, or the sandbox). ADR 029.

/** Where the carrier sends a number's calls and texts: this platform's webhook tree. */
function numberWebhooks(deps: Deps): Required<Pick<IncomingNumberInput, 'voiceUrl' | 'smsUrl'>> & {
  statusCallback: string;
} {
  const base = deps.config.publicUrl.origin;
  return {
    voiceUrl: `${base}/webhooks/twilio/voice`,
    smsUrl: `${base}/webhooks/twilio/sms-in`,
    statusCallback: `${base}/webhooks/twilio/call-status`,
  };
}

/** The advisory-lock class of number purchases (the second key is the install id). */
const PURCHASE_LOCK = 9001;

const callerIdCallback = (deps: Deps) => `${deps.config.publicUrl.origin}/webhooks/twilio/caller-id-status`;

/** The install number calls need installs.use besides numbers.use (the route checked numbers.use). */
function needInstalls(ctx: Ctx): void {
  if (ctx.by.kind === 'user' && !actorCan(ctx.by.actor, 'installs.use')) throw forbidden();
}

/** The agency's carrier (the telephony core's carrierFor): a 422 when the agency has no setup. */
const carrier = (ctx: Ctx): Promise<Carrier> => carrierFor(ctx);

/** A carrier refusal as a clear 422 on the field the person typed; nothing was changed. */
function refused(err: unknown, field: string): never {
  if (!(err instanceof CarrierError)) throw err;
  if (err.kind === 'number-unavailable') throw invalid(field, 'numbers.not_available');
  if (err.kind === 'already-verified') throw invalid(field, 'numbers.already_verified');
  if (err.isAuthentication) throw new AppError('VALIDATION', 'numbers.carrier_auth');
  throw invalid(field, 'numbers.carrier_refused', { reason: err.message });
}

async function installOrNotFound(ctx: Ctx, installId: number) {
  const install = await installOf(ctx, installId);
  if (!install) throw notFound();
  return install;
}

// ---------------------------------------------------------------- install number calls

/** Numbers the carrier offers, by country and area code (`contains`: digits, * for any digit). */
export async function searchNumbers(ctx: Ctx, input: TNumberSearch): Promise<TAvailableNumber[]> {
  needInstalls(ctx);
  const c = await carrier(ctx);
  let found: Awaited<ReturnType<Carrier['searchAvailableNumbers']>>;
  try {
    found = await c.searchAvailableNumbers({
      country: input.country,
      ...(input.area_code !== undefined ? { areaCode: input.area_code } : {}),
      voiceEnabled: true,
      limit: 20,
    });
  } catch (err) {
    refused(err, 'area_code');
  }
  // The monthly price is shown before anyone buys (ADR 051); a carrier that does not say leaves it null.
  const price = await c.localNumberPrice(input.country).catch(() => null);
  const pattern = input.contains ? new RegExp(input.contains.replace(/\*/g, '\\d')) : null;
  return found
    .filter((n) => !pattern || pattern.test(n.phoneNumber))
    .map((n) => ({
      phone_number: n.phoneNumber,
      friendly_name: n.friendlyName,
      locality: n.locality,
      region: n.region,
      country: n.country,
      capabilities: n.capabilities,
      monthly_price: price?.monthly ?? null,
      price_unit: price?.unit ?? null,
    }));
}

/** Tells the other modules (chats' cache of who answers a number) after commit that these numbers changed. */
const changed = (ctx: Ctx, ...phones: (string | null | undefined)[]) =>
  publish(ctx, numberChanged, { phoneNumbers: phones.filter((p): p is string => !!p) });

/**
 * Buys a number for the install and points its calls and texts at this platform. An install has one
 * purchased number: a second purchase is refused (release the first), so a number is never bought twice
 * by a double click and never left paid for without an install.
 */
export async function purchaseNumber(
  ctx: Ctx,
  input: { installId: number; phone_number: string },
): Promise<TNumber> {
  needInstalls(ctx);
  const install = await installOrNotFound(ctx, input.installId);
  const c = await carrier(ctx);
  const { agencyId, businessId } = businessOf(ctx);
  // One purchase per install at a time (a double click, two tabs): the second waits for the first, then
  // finds the install's number and is refused before anything is bought.
  return inTransaction(ctx, async (tx) => {
    await tx.db.execute(sql`select pg_advisory_xact_lock(${PURCHASE_LOCK}, ${install.id})`);
    if (await numberOfInstall(tx, install.id, 'purchased'))
      throw invalid('phone_number', 'numbers.install_has_number');
    let bought: Awaited<ReturnType<Carrier['purchaseNumber']>>;
    try {
      bought = await c.purchaseNumber(input.phone_number, {
        ...numberWebhooks(ctx.deps),
        friendlyName: install.name,
      });
    } catch (err) {
      refused(err, 'phone_number');
    }
    try {
      const [row] = await tx.db
        .insert(numbers)
        .values({
          agency_id: agencyId,
          business_id: businessId,
          install_id: install.id,
          phone_number: bought.phoneNumber,
          friendly_name: install.name,
          kind: 'purchased',
          carrier_sid: bought.sid,
          capabilities: bought.capabilities,
          verified: true,
        })
        .returning();
      if (!row) throw new Error('numbers: insert returned nothing');
      changed(tx, row.phone_number);
      return presentNumber(row, install.name);
    } catch (err) {
      // Not recorded: give the number back rather than pay for a number nobody sees.
      await c.releaseNumber(bought.sid).catch(() => undefined);
      throw err;
    }
  });
}

/** Gives the install one of the business's purchased numbers (moved from another install if it had one). */
export async function assignNumber(
  ctx: Ctx,
  input: { installId: number; number_id: number },
): Promise<TNumber> {
  needInstalls(ctx);
  const install = await installOrNotFound(ctx, input.installId);
  const row = await findNumber(ctx, input.number_id);
  if (row.kind !== 'purchased') throw invalid('number_id', 'numbers.not_purchased');
  const current = await numberOfInstall(ctx, install.id, 'purchased');
  if (current && current.id !== row.id) throw invalid('number_id', 'numbers.install_has_number');
  const [updated] = await ctx.db
    .update(numbers)
    .set({ install_id: install.id, updated_at: new Date() })
    .where(eq(numbers.id, row.id))
    .returning();
  changed(ctx, row.phone_number);
  return presentNumber(updated ?? row, install.name);
}

/** Releases a number at the carrier and keeps the row, released and unassigned. */
async function releaseRow(ctx: Ctx, row: NumberRow): Promise<void> {
  if (row.kind === 'purchased' && row.carrier_sid) {
    const c = await carrier(ctx);
    try {
      await c.releaseNumber(row.carrier_sid);
    } catch (err) {
      // Already gone at the carrier: releasing it here is what the person wants.
      if (!(err instanceof CarrierError && err.status === 404)) refused(err, 'phone_number');
    }
  } else if (row.kind === 'caller_id' && row.verified) {
    const c = await carrier(ctx);
    const ids = await c.listOutgoingCallerIds().catch(() => []);
    const id = ids.find((x) => x.phoneNumber === row.phone_number);
    if (id) await c.deleteOutgoingCallerId(id.sid).catch(() => undefined);
  }
  await ctx.db
    .update(numbers)
    .set({ released_at: new Date(), install_id: null, updated_at: new Date() })
    .where(and(eq(numbers.id, row.id), isNull(numbers.released_at)));
  changed(ctx, row.phone_number);
}

/** POST /v1/installs/{id}/release-number: the install's purchased number goes back to the carrier. */
export async function releaseInstallNumber(ctx: Ctx, input: { installId: number }): Promise<TNumber> {
  needInstalls(ctx);
  const install = await installOrNotFound(ctx, input.installId);
  const row = await numberOfInstall(ctx, install.id, 'purchased');
  if (!row) throw new AppError('VALIDATION', 'numbers.install_no_number');
  await releaseRow(ctx, row);
  return presentNumber({ ...row, install_id: null }, null);
}

/**
 * POST /v1/installs/{id}/check-number: the carrier still has the install's number and its webhooks point
 * here; when they do not, they are re-pointed. Answers what it found.
 */
export async function checkInstallNumber(ctx: Ctx, input: { installId: number }) {
  needInstalls(ctx);
  const install = await installOrNotFound(ctx, input.installId);
  const row = await numberOfInstall(ctx, install.id, 'purchased');
  if (!row) throw new AppError('VALIDATION', 'numbers.install_no_number');
  const c = await carrier(ctx);
  let owned: Awaited<ReturnType<Carrier['listIncomingNumbers']>>;
  try {
    owned = await c.listIncomingNumbers();
  } catch (err) {
    refused(err, 'phone_number');
  }
  const incoming = owned.find((n) => n.sid === row.carrier_sid || n.phoneNumber === row.phone_number);
  if (!incoming)
    return { phone_number: row.phone_number, found: false, webhooks_ok: false, repointed: false };
  const hooks = numberWebhooks(ctx.deps);
  if (incoming.voiceUrl === hooks.voiceUrl && incoming.smsUrl === hooks.smsUrl)
    return { phone_number: row.phone_number, found: true, webhooks_ok: true, repointed: false };
  try {
    await c.updateIncomingNumber(incoming.sid, hooks);
  } catch (err) {
    refused(err, 'phone_number');
  }
  if (incoming.sid !== row.carrier_sid)
    await ctx.db
      .update(numbers)
      .set({ carrier_sid: incoming.sid, updated_at: new Date() })
      .where(eq(numbers.id, row.id));
  return { phone_number: row.phone_number, found: true, webhooks_ok: true, repointed: true };
}

/**
 * POST /v1/installs/{id}/assign-landline-number: the business's own landline texts for the install
 * (kind landline, SMS on); the install's landline settings follow. One landline per install: a new one
 * replaces the previous.
 */
export async function assignLandline(
  ctx: Ctx,
  input: { installId: number; phone_number: string },
): Promise<TNumber> {
  needInstalls(ctx);
  const install = await installOrNotFound(ctx, input.installId);
  const { agencyId, businessId } = businessOf(ctx);
  return inTransaction(ctx, async (tx) => {
    const previous = await numberOfInstall(tx, install.id, 'landline');
    if (previous && previous.phone_number !== input.phone_number)
      await tx.db
        .update(numbers)
        .set({ install_id: null, updated_at: new Date() })
        .where(eq(numbers.id, previous.id));
    const [existing] = await numberByPhone(tx, input.phone_number, ['landline']);
    let row: NumberRow | undefined;
    if (existing) {
      [row] = await tx.db
        .update(numbers)
        .set({ install_id: install.id, sms_enabled: true, updated_at: new Date() })
        .where(eq(numbers.id, existing.id))
        .returning();
    } else {
      [row] = await tx.db
        .insert(numbers)
        .values({
          agency_id: agencyId,
          business_id: businessId,
          install_id: install.id,
          phone_number: input.phone_number,
          friendly_name: install.name,
          kind: 'landline',
          sms_enabled: true,
          capabilities: { voice: false, sms: true, mms: false },
        })
        .returning();
    }
    if (!row) throw new Error('numbers: landline not stored');
    changed(tx, previous?.phone_number, row.phone_number);
    await setInstallLandline(tx, install.id, { landline_number: row.phone_number, landline_enabled: true });
    return presentNumber(row, install.name);
  });
}

/** POST /v1/installs/{id}/disable-landline-number: the install stops texting from its landline. */
export async function disableLandline(ctx: Ctx, input: { installId: number }): Promise<void> {
  needInstalls(ctx);
  const install = await installOrNotFound(ctx, input.installId);
  await inTransaction(ctx, async (tx) => {
    const row = await numberOfInstall(tx, install.id, 'landline');
    if (row)
      await tx.db
        .update(numbers)
        .set({ install_id: null, sms_enabled: false, updated_at: new Date() })
        .where(eq(numbers.id, row.id));
    changed(tx, row?.phone_number);
    await setInstallLandline(tx, install.id, { landline_number: null, landline_enabled: false });
  });
}

// ---------------------------------------------------------------- caller ids

async function markVerified(ctx: Ctx, phone: string): Promise<void> {
  const { agencyId, businessId } = businessOf(ctx);
  await ctx.db
    .update(numbers)
    .set({ verified: true, validation_code: null, updated_at: new Date() })
    .where(
      and(
        eq(numbers.agency_id, agencyId),
        eq(numbers.business_id, businessId),
        eq(numbers.phone_number, phone),
        isNull(numbers.released_at),
      ),
    );
}

/**
 * POST /v1/installs/verify-phone-number: the carrier calls the number and asks for a code; the person
 * types the code answered here. The number is kept (a caller id, unless the business has it as a landline)
 * and marked verified when the carrier reports success or check-caller-id finds it.
 */
export async function verifyPhoneNumber(ctx: Ctx, input: { phone_number: string }) {
  const { agencyId, businessId } = businessOf(ctx);
  const c = await carrier(ctx);
  const phone = input.phone_number;
  const known = await c.listOutgoingCallerIds().catch(() => []);
  if (known.some((x) => x.phoneNumber === phone)) {
    await ensureCallerId(ctx, phone, agencyId, businessId);
    await markVerified(ctx, phone);
    return { phone_number: phone, validation_code: '', verified: true };
  }
  let validation: Awaited<ReturnType<Carrier['requestCallerIdValidation']>>;
  try {
    validation = await c.requestCallerIdValidation({
      phoneNumber: phone,
      statusCallback: callerIdCallback(ctx.deps),
    });
  } catch (err) {
    refused(err, 'phone_number');
  }
  await ensureCallerId(ctx, phone, agencyId, businessId);
  await ctx.db
    .update(numbers)
    .set({ validation_code: validation.validationCode, updated_at: new Date() })
    .where(
      and(eq(numbers.business_id, businessId), eq(numbers.phone_number, phone), isNull(numbers.released_at)),
    );
  return { phone_number: phone, validation_code: validation.validationCode, verified: false };
}

/** The business keeps the number: as it already has it (caller id or landline), or as a new caller id. */
async function ensureCallerId(ctx: Ctx, phone: string, agencyId: number, businessId: number) {
  const rows = await numberByPhone(ctx, phone, ['caller_id', 'landline', 'purchased']);
  if (rows.length) return;
  await ctx.db
    .insert(numbers)
    .values({
      agency_id: agencyId,
      business_id: businessId,
      phone_number: phone,
      kind: 'caller_id',
      capabilities: { voice: true, sms: false, mms: false },
      sms_enabled: false,
    })
    .onConflictDoNothing();
}

/** POST /v1/installs/check-caller-id: whether the carrier lists the number as a verified caller id. */
export async function checkCallerId(ctx: Ctx, input: { phone_number: string }) {
  const c = await carrier(ctx);
  let ids: Awaited<ReturnType<Carrier['listOutgoingCallerIds']>>;
  try {
    ids = await c.listOutgoingCallerIds();
  } catch (err) {
    refused(err, 'phone_number');
  }
  const verified = ids.some((x) => x.phoneNumber === input.phone_number);
  if (verified) await markVerified(ctx, input.phone_number);
  return { phone_number: input.phone_number, validation_code: '', verified };
}

/**
 * The carrier's caller-id validation callback (/webhooks/twilio/caller-id-status, signed): on success the
 * number is verified for every business of the account's agency that keeps it (for a business's own
 * account, ADR 093: that business only). Idempotent by nature.
 */
export async function callerIdStatus(
  carrier: Ctx,
  input: { accountSid: string; phone: string; status: string },
): Promise<boolean> {
  platformOnly(carrier);
  if (input.status !== 'success') return false;
  const { deps } = carrier;
  const owner = await ownerOfAccount(deps, input.accountSid);
  if (owner === null) return false;
  const { agencyId } = owner;
  const rows = await carrier.db
    .select({ businessId: numbers.business_id })
    .from(numbers)
    .where(
      and(
        eq(numbers.agency_id, agencyId),
        owner.businessId === null ? undefined : eq(numbers.business_id, owner.businessId),
        eq(numbers.phone_number, input.phone),
        isNull(numbers.released_at),
      ),
    );
  for (const businessId of new Set(rows.map((r) => r.businessId))) {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId, businessId },
      { kind: 'system', source: 'carrier', name: 'caller-id-status' },
    );
    await markVerified(ctx, input.phone);
  }
  return rows.length > 0;
}

// ---------------------------------------------------------------- /v1/numbers

export async function getNumber(ctx: Ctx, id: number): Promise<TNumber> {
  const row = await findNumber(ctx, id);
  const [present] = await presentNumbers(ctx, [row]);
  return present ?? presentNumber(row, null);
}

/** POST /v1/numbers: a caller id or landline of the business, unverified until the carrier's call. */
export async function createNumber(ctx: Ctx, input: TNumberCreate): Promise<TNumber> {
  const { agencyId, businessId } = businessOf(ctx);
  if (input.install_id) await installOrNotFound(ctx, input.install_id);
  const [row] = await ctx.db
    .insert(numbers)
    .values({
      agency_id: agencyId,
      business_id: businessId,
      install_id: input.install_id ?? null,
      phone_number: input.phone_number,
      friendly_name: input.friendly_name ?? '',
      kind: input.kind,
      capabilities:
        input.kind === 'landline'
          ? { voice: false, sms: true, mms: false }
          : { voice: true, sms: false, mms: false },
      sms_enabled: input.kind === 'landline',
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw invalid('phone_number', 'numbers.duplicate');
  changed(ctx, row.phone_number);
  return getNumber(ctx, row.id);
}

/** PUT /v1/numbers/{id}: its name, texting switch and install. */
export async function updateNumber(ctx: Ctx, input: TNumberUpdate & { id: number }): Promise<TNumber> {
  const row = await findNumber(ctx, input.id);
  if (input.install_id) {
    await installOrNotFound(ctx, input.install_id);
    if (row.kind === 'purchased') {
      const current = await numberOfInstall(ctx, input.install_id, 'purchased');
      if (current && current.id !== row.id) throw invalid('install_id', 'numbers.install_has_number');
    }
  }
  await ctx.db
    .update(numbers)
    .set({
      ...(input.friendly_name !== undefined ? { friendly_name: input.friendly_name } : {}),
      ...(input.sms_enabled !== undefined ? { sms_enabled: input.sms_enabled } : {}),
      ...(input.install_id !== undefined ? { install_id: input.install_id } : {}),
      updated_at: new Date(),
    })
    .where(eq(numbers.id, row.id));
  changed(ctx, row.phone_number);
  return getNumber(ctx, row.id);
}

/** DELETE /v1/numbers/{id}: released at the carrier (a bought number) and gone from the lists. */
export async function deleteNumber(ctx: Ctx, id: number): Promise<void> {
  const row = await findNumber(ctx, id);
  await releaseRow(ctx, row);
}
