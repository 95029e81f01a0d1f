import {
  isTollFree,
  type TCampaignRegistration,
  type TCampaignResponse,
  type TCarrierProfile,
  type TNumberRegistration,
  type TTollfreeResponse,
  type ZCampaignInput,
  type ZProfileInput,
  type ZTollfreeInput,
} from '@stn/contracts/registration';
import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type BusinessInformation,
  type Carrier,
  CarrierError,
  CarrierValidationError,
  type CustomerProfileInput,
} from '../../platform/carrier/carrier.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { type Ctx, found, inTransaction, tenantContext } from '../../platform/tenancy/context.ts';
import { agencyRegistrationProperties, setAgencyRegistrationProperties } from '../agencies/service.ts';
import { businessesWithOwnCarrier, businessNames } from '../businesses/service.ts';
import { installForCalls } from '../installs/service.ts';
import { carrierFor, registrationNumbers } from '../telephony/service.ts';
import { carrierCampaigns, carrierProfiles, tollfreeVerifications } from './tables.ts';

// SMS registration (issue 26, ADR 092): the agency's TrustHub customer profiles, its A2P 10DLC brand and
// campaign on a Messaging Service, toll-free verifications. The carrier decides; our rows follow its
// statuses (this module's sync, run by the per-minute job, the status webhooks and "Refresh status"), and
// the agency's properties twProfileSid / twCampaignSid follow our rows, so the banners of spec 000 §8 go.

type ProfileRow = typeof carrierProfiles.$inferSelect;
type CampaignRow = typeof carrierCampaigns.$inferSelect;
type TollfreeRow = typeof tollfreeVerifications.$inferSelect;
type ProfileIn = z.output<typeof ZProfileInput>;
type CampaignIn = z.output<typeof ZCampaignInput>;
type TollfreeIn = z.output<typeof ZTollfreeInput>;

/** Statuses the carrier has not decided yet: the sync asks about them. */
const PROFILE_OPEN = ['pending-review', 'in-review'];
const PROFILE_SUBMITTED = ['pending-review', 'in-review', 'twilio-approved'];
const TOLLFREE_OPEN = ['PENDING_REVIEW', 'IN_REVIEW'];

/** The advisory lock class of an agency's registration work (with the agency's id). */
const LOCK_CLASS = 26026;

/** Where the carrier posts each registration's status change (our webhook tree). */
export const REGISTRATION_WEBHOOK = '/twilio/registration-status';

function agencyIdOf(ctx: Ctx): number {
  if (ctx.tenant.level === 'platform') throw new AppError('FORBIDDEN');
  return ctx.tenant.agencyId;
}

/** The agency's own context (a business user's reads of the agency's registration go through it). */
function agencyCtx(ctx: Ctx, agencyId: number): Ctx {
  if (ctx.tenant.level === 'agency') return ctx;
  return tenantContext(
    ctx.deps,
    { level: 'agency', agencyId },
    { kind: 'system', source: 'job', name: 'registration' },
  );
}

/** The agency's carrier (its own account or its sandbox account). */
async function agencyCarrier(ctx: Ctx, agencyId: number): Promise<Carrier> {
  return carrierFor(agencyCtx(ctx, agencyId));
}

function statusCallback(ctx: Ctx): string {
  return `${ctx.deps.config.publicUrl.toString().replace(/\/+$/, '')}/webhooks${REGISTRATION_WEBHOOK}`;
}

/** The carrier's refusal as a 422 the form shows; anything else about the carrier as a plain message. */
function carrierRefusal(err: unknown, field = 'carrier'): never {
  if (err instanceof CarrierValidationError)
    throw new AppError(
      'VALIDATION',
      'registration.carrier_refused',
      { [field]: 'registration.carrier_refused' },
      {
        reason: err.message,
      },
    );
  if (err instanceof CarrierError)
    throw new AppError('VALIDATION', 'registration.carrier_failed', undefined, { reason: err.message });
  throw err;
}

// ---------------------------------------------------------------- profiles

function carrierProfileInput(input: ProfileIn): Omit<CustomerProfileInput, 'statusCallback'> {
  const b = input.business;
  const r = input.representative;
  const a = input.address;
  const business: BusinessInformation = {
    legalName: b.legal_name,
    businessType: b.business_type,
    industry: b.industry,
    registrationNumber: b.ein,
    registrationIdentifier: 'EIN',
    website: b.website,
    regionsOfOperation: 'USA_AND_CANADA',
  };
  return {
    friendlyName: input.friendly_name,
    email: input.email,
    business,
    representative: {
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      phoneNumber: r.phone,
      businessTitle: r.business_title,
      jobPosition: r.job_position,
    },
    address: {
      street: a.street,
      ...(a.street_secondary ? { streetSecondary: a.street_secondary } : {}),
      city: a.city,
      region: a.region,
      postalCode: a.postal_code,
      isoCountry: a.iso_country,
    },
  };
}

function presentProfile(
  row: ProfileRow,
  primarySid: string | undefined,
  inUse: Set<number>,
): TCarrierProfile {
  return {
    id: row.id,
    sid: row.sid,
    friendly_name: row.friendly_name,
    email: row.email,
    business: row.business as TCarrierProfile['business'],
    representative: row.representative as TCarrierProfile['representative'],
    address: row.address as TCarrierProfile['address'],
    status: row.status as TCarrierProfile['status'],
    reasons: row.reasons,
    problems: row.problems,
    is_primary: Boolean(row.sid && row.sid === primarySid),
    in_use: inUse.has(row.id),
    submitted_at: row.submitted_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function presentProfiles(ctx: Ctx, agencyId: number, rows: ProfileRow[]): Promise<TCarrierProfile[]> {
  const props = await agencyRegistrationProperties(ctx, { agencyId });
  const used = await ctx.db
    .select({ id: carrierCampaigns.profile_id })
    .from(carrierCampaigns)
    .where(eq(carrierCampaigns.agency_id, agencyId));
  const inUse = new Set(used.map((u) => u.id));
  return rows.map((r) => presentProfile(r, props.twPrimaryProfileSid, inUse));
}

async function profileRow(
  ctx: Ctx,
  agencyId: number,
  key: { id?: number; sid?: string },
): Promise<ProfileRow> {
  const where =
    key.id !== undefined ? eq(carrierProfiles.id, key.id) : eq(carrierProfiles.sid, key.sid ?? '');
  const [row] = await ctx.db
    .select()
    .from(carrierProfiles)
    .where(and(eq(carrierProfiles.agency_id, agencyId), where))
    .limit(1);
  return found(row);
}

export async function listProfiles(ctx: Ctx): Promise<TCarrierProfile[]> {
  const agencyId = agencyIdOf(ctx);
  const rows = await ctx.db
    .select()
    .from(carrierProfiles)
    .where(eq(carrierProfiles.agency_id, agencyId))
    .orderBy(carrierProfiles.id);
  return presentProfiles(ctx, agencyId, rows);
}

export async function getProfile(ctx: Ctx, input: { id: number }): Promise<TCarrierProfile> {
  const agencyId = agencyIdOf(ctx);
  const row = await profileRow(ctx, agencyId, input);
  const [p] = await presentProfiles(ctx, agencyId, [row]);
  return p as TCarrierProfile;
}

/**
 * A new profile (a draft at the carrier), or a draft's or a rejected one's changes (a rejected one goes back
 * to draft: Fix and resubmit). The carrier is asked first: a refusal writes nothing.
 */
export async function saveProfile(ctx: Ctx, input: ProfileIn): Promise<TCarrierProfile> {
  const agencyId = agencyIdOf(ctx);
  const carrier = await agencyCarrier(ctx, agencyId);
  const parts = carrierProfileInput(input);
  const columns = {
    friendly_name: input.friendly_name,
    email: input.email,
    business: input.business,
    representative: input.representative,
    address: input.address,
    problems: [],
    updated_at: new Date(),
  };
  if (input.id !== undefined) {
    const row = await profileRow(ctx, agencyId, { id: input.id });
    if (row.status !== 'draft' && row.status !== 'twilio-rejected')
      throw new AppError('CONFLICT', 'registration.profile_locked');
    const remote = row.sid
      ? await carrier.updateCustomerProfile(row.sid, parts).catch((e: unknown) => carrierRefusal(e))
      : await carrier
          .createCustomerProfile({ ...parts, statusCallback: statusCallback(ctx) })
          .catch((e: unknown) => carrierRefusal(e));
    await ctx.db
      .update(carrierProfiles)
      .set({ ...columns, sid: remote.sid, status: remote.status, reasons: remote.rejectionReasons })
      .where(eq(carrierProfiles.id, row.id));
    return getProfile(ctx, { id: row.id });
  }
  const props = await agencyRegistrationProperties(ctx, { agencyId });
  const remote = await carrier
    .createCustomerProfile({
      ...parts,
      statusCallback: statusCallback(ctx),
      ...(props.twPrimaryProfileSid ? { primaryProfileSid: props.twPrimaryProfileSid } : {}),
    })
    .catch((e: unknown) => carrierRefusal(e));
  const [created] = await ctx.db
    .insert(carrierProfiles)
    .values({ ...columns, agency_id: agencyId, sid: remote.sid, status: remote.status })
    .returning({ id: carrierProfiles.id });
  return getProfile(ctx, { id: (created as { id: number }).id });
}

/** A profile no campaign is built on; the carrier keeps its bundle (Twilio deletes drafts after a while). */
export async function deleteProfile(ctx: Ctx, input: { id: number }): Promise<void> {
  const agencyId = agencyIdOf(ctx);
  const row = await profileRow(ctx, agencyId, input);
  const [used] = await ctx.db
    .select({ id: carrierCampaigns.id })
    .from(carrierCampaigns)
    .where(eq(carrierCampaigns.profile_id, row.id))
    .limit(1);
  if (used) throw new AppError('VALIDATION', 'registration.profile_in_use');
  await ctx.db.delete(carrierProfiles).where(eq(carrierProfiles.id, row.id));
  const props = await agencyRegistrationProperties(ctx, { agencyId });
  const set: Parameters<typeof setAgencyRegistrationProperties>[1]['set'] = {};
  if (row.sid && props.twPrimaryProfileSid === row.sid) set.twPrimaryProfileSid = null;
  if (row.sid && props.twProfileSid === row.sid) {
    const [other] = await ctx.db
      .select({ sid: carrierProfiles.sid })
      .from(carrierProfiles)
      .where(and(eq(carrierProfiles.agency_id, agencyId), inArray(carrierProfiles.status, PROFILE_SUBMITTED)))
      .limit(1);
    set.twProfileSid = other?.sid ?? null;
  }
  if (Object.keys(set).length) await setAgencyRegistrationProperties(ctx, { agencyId, set });
}

/** The carrier's evaluation: what the profile lacks before it can be submitted (kept on the row). */
export async function validateProfile(ctx: Ctx, input: { id: number }) {
  const agencyId = agencyIdOf(ctx);
  const row = await profileRow(ctx, agencyId, input);
  if (!row.sid) throw new AppError('VALIDATION', 'registration.profile_not_created');
  const carrier = await agencyCarrier(ctx, agencyId);
  const evaluation = await carrier.evaluateCustomerProfile(row.sid).catch((e: unknown) => carrierRefusal(e));
  await ctx.db
    .update(carrierProfiles)
    .set({ problems: evaluation.problems, updated_at: new Date() })
    .where(eq(carrierProfiles.id, row.id));
  return {
    compliant: evaluation.compliant,
    problems: evaluation.problems,
    profile: await getProfile(ctx, input),
  };
}

/**
 * Submits the profile for review (by id or BU… sid) when the evaluation finds nothing missing; else a 422
 * with the problems. The agency's twProfileSid names it from then on (the first banner goes).
 */
export async function registerProfile(ctx: Ctx, input: { sid: string }): Promise<TCarrierProfile> {
  const agencyId = agencyIdOf(ctx);
  const key = /^\d+$/.test(input.sid) ? { id: Number(input.sid) } : { sid: input.sid };
  const row = await profileRow(ctx, agencyId, key);
  if (!row.sid) throw new AppError('VALIDATION', 'registration.profile_not_created');
  if (row.status !== 'draft') throw new AppError('CONFLICT', 'registration.profile_submitted');
  const carrier = await agencyCarrier(ctx, agencyId);
  const { profile, evaluation } = await carrier
    .submitCustomerProfile(row.sid)
    .catch((e: unknown) => carrierRefusal(e));
  await ctx.db
    .update(carrierProfiles)
    .set({
      status: profile.status,
      reasons: profile.rejectionReasons,
      problems: evaluation.problems,
      ...(evaluation.compliant ? { submitted_at: new Date() } : {}),
      updated_at: new Date(),
    })
    .where(eq(carrierProfiles.id, row.id));
  if (!evaluation.compliant)
    throw new AppError('VALIDATION', 'registration.profile_incomplete', undefined, {}, undefined, {
      problems: evaluation.problems,
    });
  const props = await agencyRegistrationProperties(ctx, { agencyId });
  if (!props.twProfileSid)
    await setAgencyRegistrationProperties(ctx, { agencyId, set: { twProfileSid: row.sid } });
  return getProfile(ctx, { id: row.id });
}

/** The agency's primary profile (twPrimaryProfileSid): later profiles are attached to it. */
export async function setPrimaryProfile(ctx: Ctx, input: { id: number }): Promise<TCarrierProfile> {
  const agencyId = agencyIdOf(ctx);
  const row = await profileRow(ctx, agencyId, input);
  if (!row.sid) throw new AppError('VALIDATION', 'registration.profile_not_created');
  await setAgencyRegistrationProperties(ctx, { agencyId, set: { twPrimaryProfileSid: row.sid } });
  return getProfile(ctx, input);
}

// ---------------------------------------------------------------- brand and campaign

function presentRegistration(row: CampaignRow): TCampaignRegistration {
  const b = row.brand_input as CampaignIn['brand'];
  const c = row.campaign_input as CampaignIn['campaign'];
  return {
    id: row.id,
    profile_id: row.profile_id,
    status: row.status as TCampaignRegistration['status'],
    brand: {
      sid: row.brand_sid,
      status: row.brand_status,
      reasons: row.brand_reasons,
      email: b.email,
      company_type: b.company_type,
      brand_type: b.brand_type,
    },
    messaging_service_sid: row.messaging_service_sid,
    campaign: {
      ...c,
      sid: row.campaign_sid,
      campaign_id: row.campaign_id,
      status: row.campaign_status,
      failures: row.campaign_failures,
      throughput_mps: row.throughput_mps,
    },
    synced_at: row.synced_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  };
}

async function campaignRow(ctx: Ctx, agencyId: number): Promise<CampaignRow | null> {
  const [row] = await ctx.db
    .select()
    .from(carrierCampaigns)
    .where(eq(carrierCampaigns.agency_id, agencyId))
    .limit(1);
  return row ?? null;
}

/**
 * Whether the agency's texts are held to registration (ADR 092): always on a real carrier account; on a
 * sandbox account once the agency has begun registering (the sandbox treats accounts that never did as
 * registered long ago, so the demo and a laptop's first hour text as before).
 */
async function registrationRequired(ctx: Ctx, agencyId: number): Promise<boolean> {
  const props = await agencyRegistrationProperties(ctx, { agencyId });
  if (props.hasCarrier && !props.sandbox) return true;
  const [any] = await ctx.db
    .select({ id: carrierProfiles.id })
    .from(carrierProfiles)
    .where(eq(carrierProfiles.agency_id, agencyId))
    .limit(1);
  return Boolean(any);
}

type NumberState = { registered: boolean; reason: string | null };

function numberState(
  n: { id: number; phone: string; carrierSid: string | null; businessId: number },
  campaign: CampaignRow | null,
  tollfree: Map<number, TollfreeRow>,
  ownAccounts: Set<number>,
): NumberState {
  if (!n.phone.startsWith('+1')) return { registered: true, reason: null };
  // A business on its own carrier account (decision 093) registers in that account: the agency's campaign
  // cannot hold its numbers, and the carrier itself treats its traffic.
  if (ownAccounts.has(n.businessId)) return { registered: false, reason: 'registration.number_own_account' };
  if (isTollFree(n.phone)) {
    const v = tollfree.get(n.id);
    if (v?.status === 'TWILIO_APPROVED') return { registered: true, reason: null };
    return {
      registered: false,
      reason:
        v && v.status !== 'TWILIO_REJECTED'
          ? 'registration.number_pending'
          : 'registration.number_tollfree_unverified',
    };
  }
  if (campaign?.status === 'approved' && n.carrierSid && campaign.number_sids.includes(n.carrierSid))
    return { registered: true, reason: null };
  if (campaign && campaign.status !== 'failed')
    return { registered: false, reason: 'registration.number_pending' };
  return { registered: false, reason: 'registration.number_unregistered' };
}

/** The businesses among these that have their own carrier account. */
const ownAccountBusinesses = (ctx: Ctx, businessIds: number[]) =>
  businessesWithOwnCarrier(ctx.deps, { ids: [...new Set(businessIds)] });

async function tollfreeByNumber(ctx: Ctx, agencyId: number, numberIds: number[]) {
  if (!numberIds.length) return new Map<number, TollfreeRow>();
  const rows = await ctx.db
    .select()
    .from(tollfreeVerifications)
    .where(
      and(eq(tollfreeVerifications.agency_id, agencyId), inArray(tollfreeVerifications.number_id, numberIds)),
    );
  return new Map(rows.map((r) => [r.number_id, r]));
}

/**
 * GET /v1/twilio/campaign: the agency's registration and the numbers it covers (an agency user: all its
 * businesses'; a business user: its own).
 */
export async function campaignStatus(ctx: Ctx): Promise<TCampaignResponse> {
  const agencyId = agencyIdOf(ctx);
  const businessId = ctx.tenant.level === 'business' ? ctx.tenant.businessId : undefined;
  const row = await campaignRow(ctx, agencyId);
  const numbers = await registrationNumbers(ctx, { agencyId, ...(businessId ? { businessId } : {}) });
  const tollfree = await tollfreeByNumber(
    ctx,
    agencyId,
    numbers.map((n) => n.id),
  );
  const names = await businessNames(ctx, { ids: [...new Set(numbers.map((n) => n.businessId))] });
  const own = await ownAccountBusinesses(
    ctx,
    numbers.map((n) => n.businessId),
  );
  const list: TNumberRegistration[] = numbers.map((n) => ({
    id: n.id,
    phone_number: n.phone,
    business_id: n.businessId,
    business_name: names.get(n.businessId) ?? '',
    install_id: n.installId,
    toll_free: isTollFree(n.phone),
    ...numberState(n, row, tollfree, own),
  }));
  return {
    registration: row ? presentRegistration(row) : null,
    numbers: list,
    required: await registrationRequired(ctx, agencyId),
  };
}

/**
 * Registers the agency's brand on a submitted profile and its campaign (the campaign is filed once the
 * brand is approved, by the sync); or fixes a failed registration: a failed brand is registered anew, a
 * failed campaign filed again on the same Messaging Service.
 */
export async function registerCampaign(ctx: Ctx, input: CampaignIn): Promise<TCampaignResponse> {
  const agencyId = agencyIdOf(ctx);
  // Two presses at once (or a press during the job's sync) are one after the other: the second finds the first's row.
  await inTransaction(ctx, async (tx) => {
    await tx.db.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASS}, ${agencyId})`);
    await fileCampaign(tx, agencyId, input);
  });
  return campaignStatus(ctx);
}

async function fileCampaign(ctx: Ctx, agencyId: number, input: CampaignIn): Promise<void> {
  const profile = await profileRow(ctx, agencyId, { id: input.profile_id }).catch(() => {
    throw invalid('profile_id', 'registration.profile_unknown');
  });
  if (!profile.sid || !PROFILE_SUBMITTED.includes(profile.status))
    throw invalid('profile_id', 'registration.profile_not_submitted');
  const existing = await campaignRow(ctx, agencyId);
  if (existing && existing.status === 'approved')
    throw new AppError('CONFLICT', 'registration.campaign_exists');
  if (existing && existing.status !== 'failed')
    throw new AppError('CONFLICT', 'registration.campaign_pending');
  const brandFailed =
    !existing ||
    existing.brand_status === 'FAILED' ||
    existing.profile_id !== profile.id ||
    !existing.brand_sid;
  const carrier = await agencyCarrier(ctx, agencyId);
  let brand: { sid: string; status: string; reasons: string[] } | null = null;
  if (brandFailed) {
    const b = await carrier
      .createBrandRegistration({
        customerProfileSid: profile.sid,
        email: input.brand.email,
        companyType: input.brand.company_type,
        brandType: input.brand.brand_type,
        ...(input.brand.stock_exchange ? { stockExchange: input.brand.stock_exchange } : {}),
        ...(input.brand.stock_ticker ? { stockTicker: input.brand.stock_ticker } : {}),
      })
      .catch((e: unknown) => carrierRefusal(e, 'brand'));
    brand = { sid: b.sid, status: b.status, reasons: b.failureReasons };
  }
  const values = {
    profile_id: profile.id,
    brand_input: input.brand,
    campaign_input: input.campaign,
    campaign_sid: null,
    campaign_id: null,
    campaign_status: null,
    campaign_failures: [],
    throughput_mps: null,
    status: brandFailed ? 'brand-pending' : 'campaign-pending',
    updated_at: new Date(),
    ...(brand ? { brand_sid: brand.sid, brand_status: brand.status, brand_reasons: brand.reasons } : {}),
  };
  if (existing) await ctx.db.update(carrierCampaigns).set(values).where(eq(carrierCampaigns.id, existing.id));
  else await ctx.db.insert(carrierCampaigns).values({ ...values, agency_id: agencyId });
  await setAgencyRegistrationProperties(ctx, {
    agencyId,
    set: { sendRegistration: true, twCampaignSid: null },
  });
  await syncAgency(ctx, { agencyId });
}

/** POST /v1/twilio/sync-campaign: asks the carrier now, then answers as GET /v1/twilio/campaign. */
export async function syncCampaign(ctx: Ctx): Promise<TCampaignResponse> {
  await syncAgency(ctx, { agencyId: agencyIdOf(ctx) });
  return campaignStatus(ctx);
}

// ---------------------------------------------------------------- toll-free verification

async function installTollfreeNumber(ctx: Ctx, installId: number) {
  if (ctx.tenant.level !== 'business') throw new AppError('FORBIDDEN');
  const { agencyId, businessId } = ctx.tenant;
  const [n] = await registrationNumbers(ctx, { agencyId, businessId, installId });
  return n ?? null;
}

function presentTollfree(row: TollfreeRow): NonNullable<TTollfreeResponse['verification']> {
  return {
    ...(row.input as TollfreeIn),
    id: row.id,
    sid: row.sid,
    status: row.status as NonNullable<TTollfreeResponse['verification']>['status'],
    rejection_reason: row.rejection_reason,
    error_code: row.error_code,
    updated_at: row.updated_at.toISOString(),
  };
}

async function installExists(ctx: Ctx, installId: number): Promise<void> {
  // An install id that is not the business's is a 404.
  if (!(await installForCalls(ctx, installId))) throw notFound();
}

export async function tollfreeStatus(ctx: Ctx, input: { installId: number }): Promise<TTollfreeResponse> {
  await installExists(ctx, input.installId);
  const n = await installTollfreeNumber(ctx, input.installId);
  if (!n) return { number: null, verification: null };
  const [row] = await ctx.db
    .select()
    .from(tollfreeVerifications)
    .where(eq(tollfreeVerifications.number_id, n.id))
    .limit(1);
  return {
    number: { id: n.id, phone_number: n.phone, toll_free: isTollFree(n.phone) },
    verification: row ? presentTollfree(row) : null,
  };
}

/** Files the verification of the install's toll-free number (or a rejected one's fix). */
export async function submitTollfree(
  ctx: Ctx,
  input: { installId: number; body: TollfreeIn },
): Promise<TTollfreeResponse> {
  await installExists(ctx, input.installId);
  const n = await installTollfreeNumber(ctx, input.installId);
  if (!n) throw new AppError('VALIDATION', 'registration.no_number');
  if (!isTollFree(n.phone)) throw new AppError('VALIDATION', 'registration.not_tollfree');
  if (!n.carrierSid) throw new AppError('VALIDATION', 'registration.no_number');
  const { agencyId, businessId } = ctx.tenant as { agencyId: number; businessId: number };
  const [existing] = await ctx.db
    .select()
    .from(tollfreeVerifications)
    .where(eq(tollfreeVerifications.number_id, n.id))
    .limit(1);
  if (existing && existing.status !== 'TWILIO_REJECTED')
    throw new AppError(
      'CONFLICT',
      existing.status === 'TWILIO_APPROVED'
        ? 'registration.tollfree_approved'
        : 'registration.tollfree_pending',
    );
  const b = input.body;
  const props = await agencyRegistrationProperties(ctx, { agencyId });
  const carrier = await carrierFor(ctx);
  const v = await carrier
    .createTollfreeVerification({
      tollfreePhoneNumberSid: n.carrierSid,
      ...(props.twProfileSid ? { customerProfileSid: props.twProfileSid } : {}),
      businessName: b.business_name,
      businessWebsite: b.business_website,
      notificationEmail: b.notification_email,
      useCaseCategories: b.use_case_categories,
      useCaseSummary: b.use_case_summary,
      productionMessageSample: b.production_message_sample,
      optInImageUrls: b.opt_in_image_urls,
      optInType: b.opt_in_type,
      messageVolume: b.message_volume,
      ...(b.additional_information ? { additionalInformation: b.additional_information } : {}),
    })
    .catch((e: unknown) => carrierRefusal(e));
  const values = {
    sid: v.sid,
    input: b,
    status: v.status,
    rejection_reason: v.rejectionReason,
    error_code: v.errorCode,
    updated_at: new Date(),
  };
  if (existing)
    await ctx.db.update(tollfreeVerifications).set(values).where(eq(tollfreeVerifications.id, existing.id));
  else
    await ctx.db.insert(tollfreeVerifications).values({
      ...values,
      agency_id: agencyId,
      business_id: businessId,
      install_id: input.installId,
      number_id: n.id,
    });
  return tollfreeStatus(ctx, input);
}

// ---------------------------------------------------------------- what a number may send

/**
 * Whether a number of the agency may text at volume (a broadcast from it): null when it may, else the
 * locale key of why not; with the campaign's throughput (messages per second) when the carrier gave one.
 */
export async function sendingAllowance(
  ctx: Ctx,
  input: { agencyId: number; phone: string },
): Promise<{ refusal: string | null; throughputMps: number | null }> {
  const row = await campaignRow(ctx, input.agencyId);
  const throughputMps = row?.status === 'approved' ? row.throughput_mps : null;
  if (!input.phone.startsWith('+1')) return { refusal: null, throughputMps };
  if (!(await registrationRequired(ctx, input.agencyId))) return { refusal: null, throughputMps };
  const [n] = await registrationNumbers(ctx, { agencyId: input.agencyId, phone: input.phone });
  if (!n) return { refusal: null, throughputMps };
  if ((await ownAccountBusinesses(ctx, [n.businessId])).size) return { refusal: null, throughputMps: null };
  const tollfree = await tollfreeByNumber(ctx, input.agencyId, [n.id]);
  const state = numberState(n, row, tollfree, new Set());
  return {
    refusal: state.registered ? null : state.reason,
    throughputMps: isTollFree(n.phone) ? null : throughputMps,
  };
}

// ---------------------------------------------------------------- following the carrier

/** Asks a carrier about a sid; a sid it no longer knows (a restarted sandbox) is "unknown", not a failure. */
async function ask<T>(work: () => Promise<T>): Promise<T | null> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof CarrierError && err.status === 404) return null;
    throw err;
  }
}

/**
 * Brings an agency's registration rows up to the carrier's word, files what a decision unblocks (the
 * campaign once the brand is approved, the sender pool's numbers) and writes the agency's properties.
 */
export async function syncAgency(ctx: Ctx, input: { agencyId: number }): Promise<void> {
  // One sync of an agency at a time (the job, a webhook, Refresh status, a registration being filed): one
  // that finds another running leaves the work to it.
  await inTransaction(ctx, async (tx) => {
    const [got] = (
      await tx.db.execute<{ ok: boolean }>(
        sql`select pg_try_advisory_xact_lock(${LOCK_CLASS}, ${input.agencyId}) as ok`,
      )
    ).rows;
    if (got?.ok) await syncLocked(tx, input.agencyId);
  });
}

async function syncLocked(ctx: Ctx, agencyId: number): Promise<void> {
  let carrier: Carrier;
  try {
    carrier = await agencyCarrier(ctx, agencyId);
  } catch {
    return;
  }
  const now = new Date();
  const profiles = await ctx.db
    .select()
    .from(carrierProfiles)
    .where(and(eq(carrierProfiles.agency_id, agencyId), inArray(carrierProfiles.status, PROFILE_OPEN)));
  for (const p of profiles) {
    const remote = await ask(() => carrier.fetchCustomerProfile(p.sid as string));
    await ctx.db
      .update(carrierProfiles)
      .set({
        synced_at: now,
        ...(remote && remote.status !== p.status
          ? { status: remote.status, reasons: remote.rejectionReasons, updated_at: now }
          : {}),
      })
      .where(eq(carrierProfiles.id, p.id));
  }

  const row = await campaignRow(ctx, agencyId);
  if (row) await syncCampaignRow(ctx, carrier, row, now);

  const open = await ctx.db
    .select()
    .from(tollfreeVerifications)
    .where(
      and(
        eq(tollfreeVerifications.agency_id, agencyId),
        inArray(tollfreeVerifications.status, TOLLFREE_OPEN),
      ),
    );
  for (const v of open) {
    if (!v.sid) continue;
    // A business with its own carrier account filed through it: asked through the same account.
    const own = await carrierFor(
      tenantContext(
        ctx.deps,
        { level: 'business', agencyId, businessId: v.business_id },
        {
          kind: 'system',
          source: 'job',
          name: 'registration',
        },
      ),
    ).catch(() => carrier);
    const remote = await ask(() => own.fetchTollfreeVerification(v.sid as string));
    await ctx.db
      .update(tollfreeVerifications)
      .set({
        synced_at: now,
        ...(remote && remote.status !== v.status
          ? {
              status: remote.status,
              rejection_reason: remote.rejectionReason,
              error_code: remote.errorCode,
              updated_at: now,
            }
          : {}),
      })
      .where(eq(tollfreeVerifications.id, v.id));
  }

  // The banners: a submitted profile names twProfileSid; only an approved campaign names twCampaignSid.
  const props = await agencyRegistrationProperties(ctx, { agencyId });
  const after = await campaignRow(ctx, agencyId);
  const campaignSid = after?.status === 'approved' ? after.campaign_sid : null;
  const set: Parameters<typeof setAgencyRegistrationProperties>[1]['set'] = {};
  if ((props.twCampaignSid ?? null) !== campaignSid) set.twCampaignSid = campaignSid;
  if (!props.twProfileSid) {
    const [submitted] = await ctx.db
      .select({ sid: carrierProfiles.sid })
      .from(carrierProfiles)
      .where(and(eq(carrierProfiles.agency_id, agencyId), inArray(carrierProfiles.status, PROFILE_SUBMITTED)))
      .limit(1);
    if (submitted?.sid) set.twProfileSid = submitted.sid;
  }
  if (Object.keys(set).length) await setAgencyRegistrationProperties(ctx, { agencyId, set });
}

async function syncCampaignRow(ctx: Ctx, carrier: Carrier, row: CampaignRow, now: Date): Promise<void> {
  const patch: Partial<typeof carrierCampaigns.$inferInsert> = { synced_at: now };
  let state = row.status;
  if (row.brand_sid && row.brand_status !== 'APPROVED' && row.brand_status !== 'FAILED') {
    const b = await ask(() => carrier.fetchBrandRegistration(row.brand_sid as string));
    if (b) {
      patch.brand_status = b.status;
      patch.brand_reasons = b.failureReasons;
      if (b.status === 'FAILED') state = 'failed';
      if (b.status === 'APPROVED') state = 'campaign-pending';
    }
  }
  const brandApproved = (patch.brand_status ?? row.brand_status) === 'APPROVED';
  let serviceSid = row.messaging_service_sid;
  let campaignSid = row.campaign_sid;
  if (brandApproved && state === 'campaign-pending' && !campaignSid) {
    try {
      if (!serviceSid) {
        const svc = await carrier.createMessagingService({ friendlyName: `A2P ${row.agency_id}` });
        serviceSid = svc.sid;
        patch.messaging_service_sid = serviceSid;
      }
      const c = row.campaign_input as CampaignIn['campaign'];
      const created = await carrier.createCampaign({
        messagingServiceSid: serviceSid,
        brandRegistrationSid: row.brand_sid as string,
        useCase: c.use_case,
        description: c.description,
        sampleMessages: c.sample_messages,
        messageFlow: c.message_flow,
        hasEmbeddedLinks: c.has_embedded_links,
        hasEmbeddedPhone: c.has_embedded_phone,
        optInKeywords: c.opt_in_keywords,
        optOutKeywords: c.opt_out_keywords,
        helpKeywords: c.help_keywords,
        ...(c.opt_in_message ? { optInMessage: c.opt_in_message } : {}),
        ...(c.opt_out_message ? { optOutMessage: c.opt_out_message } : {}),
        ...(c.help_message ? { helpMessage: c.help_message } : {}),
      });
      campaignSid = created.sid;
      patch.campaign_sid = created.sid;
      patch.campaign_status = created.status;
    } catch (err) {
      if (!(err instanceof CarrierValidationError)) throw err;
      state = 'failed';
      patch.campaign_status = 'FAILED';
      patch.campaign_failures = [{ code: err.code, reason: err.message }];
    }
  } else if (
    campaignSid &&
    serviceSid &&
    row.campaign_status !== 'VERIFIED' &&
    row.campaign_status !== 'FAILED'
  ) {
    const c = await ask(() => carrier.fetchCampaign(serviceSid as string, campaignSid as string));
    if (c) {
      patch.campaign_status = c.status;
      patch.campaign_failures = c.failures;
      patch.campaign_id = c.campaignId;
      patch.throughput_mps = c.throughputMps;
      if (c.status === 'VERIFIED') state = 'approved';
      if (c.status === 'FAILED') state = 'failed';
    }
  }
  // The sender pool: every 10DLC number of the agency's businesses (on the agency's account) joins it.
  if (serviceSid && state !== 'failed') {
    const numbers = await registrationNumbers(ctx, { agencyId: row.agency_id });
    const pool = new Set(row.number_sids);
    for (const n of numbers) {
      if (!n.carrierSid || pool.has(n.carrierSid) || isTollFree(n.phone) || !n.phone.startsWith('+1'))
        continue;
      const added = await carrier
        .addNumberToMessagingService(serviceSid, n.carrierSid)
        .then(() => true)
        .catch((err: unknown) => {
          // A number of another account (a business with its own) or one the carrier lost: not in the pool.
          if (err instanceof CarrierError && err.status !== null && err.status < 500) return false;
          throw err;
        });
      if (added) pool.add(n.carrierSid);
    }
    patch.number_sids = [...pool];
  }
  patch.status = state;
  if (state !== row.status || patch.campaign_status !== undefined || patch.brand_status !== undefined)
    patch.updated_at = now;
  await ctx.db.update(carrierCampaigns).set(patch).where(eq(carrierCampaigns.id, row.id));
}

/** The agencies with something the carrier has not decided (the per-minute job's work). */
export async function agenciesToSync(ctx: Ctx): Promise<number[]> {
  const ids = new Set<number>();
  const p = await ctx.db
    .selectDistinct({ id: carrierProfiles.agency_id })
    .from(carrierProfiles)
    .where(inArray(carrierProfiles.status, PROFILE_OPEN));
  const c = await ctx.db
    .selectDistinct({ id: carrierCampaigns.agency_id })
    .from(carrierCampaigns)
    .where(notInArray(carrierCampaigns.status, ['failed']));
  const t = await ctx.db
    .selectDistinct({ id: tollfreeVerifications.agency_id })
    .from(tollfreeVerifications)
    .where(inArray(tollfreeVerifications.status, TOLLFREE_OPEN));
  for (const r of [...p, ...c, ...t]) ids.add(r.id);
  return [...ids];
}

/** The agency whose registration a carrier's status webhook names (a profile, brand, campaign or verification sid). */
export async function agencyOfRegistrationSid(ctx: Ctx, sid: string): Promise<number | null> {
  const [p] = await ctx.db
    .select({ id: carrierProfiles.agency_id })
    .from(carrierProfiles)
    .where(eq(carrierProfiles.sid, sid))
    .limit(1);
  if (p) return p.id;
  const [v] = await ctx.db
    .select({ id: tollfreeVerifications.agency_id })
    .from(tollfreeVerifications)
    .where(eq(tollfreeVerifications.sid, sid))
    .limit(1);
  if (v) return v.id;
  const [c] = await ctx.db
    .select({ id: carrierCampaigns.agency_id })
    .from(carrierCampaigns)
    .where(eq(carrierCampaigns.brand_sid, sid))
    .limit(1);
  return c?.id ?? null;
}
