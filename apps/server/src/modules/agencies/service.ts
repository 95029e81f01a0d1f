import crypto from 'node:crypto';
import type {
  TAgencyListQuery,
  TAgencySettingsRequest,
  TCarrierAccountInput,
  TCreateAgencyRequest,
  TPopupPaymentRequest,
  TStripeSettingRequest,
  TTwilioSetupInput,
  TUpdateAgencyRequest,
  TWhitelabelInput,
} from '@stn/contracts/agencies';
import { AGENCY_FLAGS, type TAgencyFlag } from '@stn/contracts/agencies';
import { LANDING_LANGUAGES, type TLandingTexts } from '@stn/contracts/site';
import {
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  inArray,
  ne,
  or,
  type SQL,
  type SQLWrapper,
  sql,
} from 'drizzle-orm';
import { CarrierError } from '../../platform/carrier/carrier.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import type { Deps } from '../../platform/deps.ts';
import { publish } from '../../platform/events/events.ts';
import type { Client } from '../../platform/http/client.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import type { MailSite } from '../../platform/ports.ts';
import { isSealed } from '../../platform/secrets.ts';
import {
  acrossTenants,
  auditActorId,
  auditClient,
  type Ctx,
  inTransaction,
  scope,
} from '../../platform/tenancy/context.ts';
import { audit } from '../audit/service.ts';
import { sendNotificationMail } from '../auth/service.ts';
import { isAgencyPlan } from '../billing/service.ts';
import {
  agencyInstallStats,
  businessByCarrierAccount,
  businessCarrierConfig,
  businessInTenant,
  liveBusinessIds,
  setBusinessCarrierConfig,
} from '../businesses/service.ts';
import {
  agencySiteUrl,
  isMainDomainHost,
  normalizeHost,
  removeWhitelabels,
  type SiteAgency,
  setWhitelabel,
  whitelabelHostTaken,
} from '../sites/service.ts';
import {
  activeBusinessAdminIds,
  createUser,
  inviteUser,
  isEmailTaken,
  resumeTenantUsers,
  setPassword,
  suspendTenantUsers,
  updateUser,
} from '../users/service.ts';
import { carrierAccountChanged } from './events.ts';
import {
  type AgencyRow,
  agencyAdminOf,
  agencyScope,
  findAgency,
  maskSid,
  ownAgency,
  presentAgencies,
  presentAgency,
} from './queries.ts';
import { type AgencyProperties, agencies } from './tables.ts';

export type { Client };
export { carrierAccountChanged };

const DOMAIN_FIELD = 'whitelabel.domain';

// Twilio auth tokens and Stripe secret keys are sealed before they are written and opened only where
// they are used (ADR 016); no route answers them, sealed or not.
function sealed<T extends string | null | undefined>(deps: Deps, value: T): T {
  return (value && !isSealed(value) ? deps.secrets.seal(value) : value) as T;
}

function sealTwilio<T extends { authToken?: string | null }>(deps: Deps, cfg: T): T {
  return cfg.authToken ? { ...cfg, authToken: sealed(deps, cfg.authToken) } : cfg;
}

/**
 * The auth token of the agency, or else of the business (ADR 093), whose Twilio account this is, for the
 * webhook signature check.
 */
export async function twilioAuthTokenBySid(deps: Deps, accountSid: string): Promise<string | null> {
  const [row] = await deps.db
    .select({ cfg: agencies.twilio_config })
    .from(agencies)
    .where(sql`${agencies.twilio_config}->>'accountSid' = ${accountSid}`)
    .limit(1);
  const token = row?.cfg.authToken ?? (await businessByCarrierAccount(deps, accountSid))?.cfg.authToken;
  return token ? deps.secrets.open(token) : null;
}

/**
 * Whose carrier account this is (a webhook finds its tenant by AccountSid): an agency's (businessId null:
 * every business of the agency that has no account of its own), or one business's own; null when nobody's.
 */
export async function carrierAccountOwner(
  deps: Deps,
  accountSid: string,
): Promise<{ agencyId: number; businessId: number | null } | null> {
  const [row] = await deps.db
    .select({ id: agencies.id })
    .from(agencies)
    .where(sql`${agencies.twilio_config}->>'accountSid' = ${accountSid}`)
    .limit(1);
  if (row) return { agencyId: row.id, businessId: null };
  const business = await businessByCarrierAccount(deps, accountSid);
  return business ? { agencyId: business.agencyId, businessId: business.businessId } : null;
}

type CarrierAccount = { accountSid: string; authToken: string; sandbox: boolean };

function openedAccount(
  deps: Pick<Deps, 'secrets'>,
  cfg: { accountSid?: string; authToken?: string; sandbox?: boolean } | null | undefined,
): CarrierAccount | null {
  if (!cfg?.accountSid || !cfg.authToken) return null;
  return {
    accountSid: cfg.accountSid,
    authToken: deps.secrets.open(cfg.authToken),
    sandbox: cfg.sandbox === true,
  };
}

/**
 * The agency's carrier account for placing calls: its Twilio account (the auth token opened) or its
 * sandbox account; null when the agency has no telephony setup.
 */
export async function agencyCarrierAccount(
  deps: Pick<Deps, 'db' | 'secrets'>,
  agencyId: number,
): Promise<CarrierAccount | null> {
  const [row] = await deps.db
    .select({ cfg: agencies.twilio_config })
    .from(agencies)
    .where(eq(agencies.id, agencyId))
    .limit(1);
  return openedAccount(deps, row?.cfg);
}

/**
 * The carrier account a business's calls and texts go through (ADR 093): its own when it has one, else
 * its agency's; null when neither is set up. Without a business: the agency's.
 */
export async function carrierAccountFor(
  deps: Pick<Deps, 'db' | 'secrets'>,
  input: { agencyId: number; businessId?: number | null },
): Promise<CarrierAccount | null> {
  if (input.businessId != null) {
    const own = await businessCarrierConfig(deps, { businessId: input.businessId });
    if (own) return openedAccount(deps, own);
  }
  return agencyCarrierAccount(deps, input.agencyId);
}

const allowedCountriesOf = prepared((db) =>
  db
    .select({ countries: agencies.allowed_countries })
    .from(agencies)
    .where(eq(agencies.id, slot('id')))
    .limit(1),
);

/** The countries the agency's businesses may call and text (ISO codes, e.g. US, CA). */
export async function agencyAllowedCountries(ctx: Ctx, input: { agencyId: number }): Promise<string[]> {
  const [row] = await allowedCountriesOf(ctx.db, { id: input.agencyId });
  return row?.countries ?? [];
}

/**
 * Seals the secrets still stored in plaintext (written before sealing existed). Run at every start;
 * it finds nothing once done.
 */
export async function sealAgencySecrets(deps: Deps): Promise<number> {
  const rows = await deps.db
    .select({ id: agencies.id, twilio: agencies.twilio_config, stripe: agencies.stripe_config })
    .from(agencies)
    .where(
      sql`(${agencies.twilio_config}->>'authToken' is not null and ${agencies.twilio_config}->>'authToken' not like 'enc:v1:%')
        or (${agencies.stripe_config}->>'secretKey' is not null and ${agencies.stripe_config}->>'secretKey' not like 'enc:v1:%')`,
    );
  for (const r of rows) {
    await deps.db
      .update(agencies)
      .set({
        twilio_config: sealTwilio(deps, r.twilio),
        stripe_config: { ...r.stripe, secretKey: sealed(deps, r.stripe.secretKey) },
      })
      .where(eq(agencies.id, r.id));
  }
  return rows.length;
}

/** A unique index caught a race the checks did not: answer the same 422 the checks give. */
async function withUniqueErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
    const code = e.code ?? e.cause?.code;
    const constraint = e.constraint ?? e.cause?.constraint ?? '';
    if (code !== '23505') throw err;
    if (constraint.startsWith('users_email')) throw invalid('user.email', 'validation.email_taken');
    throw invalid(DOMAIN_FIELD, 'agencies.domain_taken');
  }
}

/**
 * Gives the agency its white-label host: its white-label entry (the sites module's) and the
 * agencies.domain/subdomain columns that site-data resolution reads, kept equal. A custom domain and a
 * subdomain of the main domain are both checked against every other agency and white-label entry.
 */
export async function claimWhitelabel(ctx: Ctx, input: TWhitelabelInput & { agencyId: number }) {
  const { agencyId } = input;
  const tx = ctx.db;
  const main = ctx.deps.config.mainDomain;
  const value = input.domain.trim().toLowerCase();
  const host = input.type === 'subdomain' ? `${value}.${main}` : value;
  const label = host.endsWith(`.${main}`) ? host.slice(0, -(main.length + 1)) : null;
  const subLabel = label && !label.includes('.') ? label : null;
  const reserved = host === main || host === `www.${main}`;
  const others = await tx
    .select({ id: agencies.id })
    .from(agencies)
    .where(
      and(
        ne(agencies.id, agencyId),
        or(
          sql`lower(${agencies.domain}) = ${host}`,
          subLabel ? sql`lower(${agencies.subdomain}) = ${subLabel}` : undefined,
        ),
      ),
    )
    .limit(1);
  if (reserved || others.length > 0 || (await whitelabelHostTaken(ctx, { agencyId, host })))
    throw invalid(DOMAIN_FIELD, 'agencies.domain_taken');

  await tx
    .update(agencies)
    .set({
      domain: input.type === 'domain' ? host : null,
      subdomain: input.type === 'subdomain' ? value : null,
      updated_at: new Date(),
    })
    .where(eq(agencies.id, agencyId));
  await setWhitelabel(ctx, { agencyId, host, type: input.type });
}

const flagsOf = (input: Partial<Pick<TCreateAgencyRequest, TAgencyFlag>>) => {
  const out: Partial<AgencyRow> = {};
  for (const key of AGENCY_FLAGS) {
    const v = input[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
};

export async function listAgencies(ctx: Ctx, q: TAgencyListQuery) {
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = agencyScope(
    ctx,
    eq(agencies.status, q.status),
    kw
      ? or(
          ilike(agencies.name, kw),
          ilike(agencies.email, kw),
          ilike(agencies.domain, kw),
          ilike(agencies.subdomain, kw),
        )
      : undefined,
  );
  const [total] = await ctx.db.select({ n: count() }).from(agencies).where(where);
  const { limit, offset } = pageOf(q);
  const rows = await ctx.db
    .select()
    .from(agencies)
    .where(where)
    .orderBy(desc(agencies.id))
    .limit(limit)
    .offset(offset);
  return listEnvelope(await presentAgencies(ctx, rows), total?.n ?? 0, q);
}

export async function getAgency(ctx: Ctx, input: { id: number }) {
  const agency = await findAgency(ctx, input);
  return presentAgency(ctx, agency);
}

/** The create form of spec 000 §3: the agency, its AgencyAdmin and its white-label, all or nothing. */
export async function createAgency(ctx: Ctx, input: TCreateAgencyRequest) {
  const { deps } = ctx;
  if (await isEmailTaken(ctx, { email: input.user.email }))
    throw invalid('user.email', 'validation.email_taken');
  // A Twilio account given on the form is checked like Setup's, before anything is written.
  const twilio = input.twilioConfig
    ? await checkedTwilioConfig(deps, input.twilioConfig, 'twilioConfig.authToken')
    : {};
  // Without a password the admin gets a link to choose one; nobody ever learns this random one.
  const password = input.user.password ?? crypto.randomBytes(24).toString('base64url');
  const id = await withUniqueErrors(() =>
    inTransaction(ctx, async (c) => {
      const tx = c.db;
      const [agency] = await tx
        .insert(agencies)
        .values({
          name: input.name,
          email: input.email ?? null,
          ...flagsOf(input),
          branding: { title: input.name },
          properties: input.properties?.installs !== undefined ? { installs: input.properties.installs } : {},
          twilio_config: sealTwilio(deps, twilio),
        })
        .returning();
      if (!agency) throw new AppError('CONFLICT');
      await claimWhitelabel(c, { ...input.whitelabel, agencyId: agency.id });
      const userId = await createUser(c, {
        email: input.user.email,
        password,
        role: 'AgencyAdmin',
        firstName: input.user.firstName,
        lastName: input.user.lastName,
        agencyId: agency.id,
      }).catch((err) => {
        if (err instanceof AppError && err.fields?.email) throw invalid('user.email', err.fields.email);
        throw err;
      });
      await audit(c, {
        action: 'agency.create',
        actorId: auditActorId(c),
        agencyId: agency.id,
        targetUserId: userId,
        data: { name: input.name, whitelabel: input.whitelabel },
        ...auditClient(c),
      });
      if (!input.user.password) inviteUser(c, { email: input.user.email });
      return agency.id;
    }),
  );
  return presentAgency(ctx, { id });
}

export async function updateAgency(ctx: Ctx, input: TUpdateAgencyRequest & { id: number }) {
  const { deps } = ctx;
  const agency = await findAgency(ctx, input);
  const admin = await agencyAdminOf(ctx, { agencyId: agency.id });
  if (
    admin &&
    input.user?.email &&
    (await isEmailTaken(ctx, { email: input.user.email, exceptUserId: admin.id }))
  )
    throw invalid('user.email', 'validation.email_taken');
  const twilio = input.twilioConfig
    ? await checkedTwilioConfig(deps, input.twilioConfig, 'twilioConfig.authToken')
    : input.twilioConfig;
  await withUniqueErrors(() =>
    inTransaction(ctx, async (c) => {
      const tx = c.db;
      const properties =
        input.properties?.installs !== undefined
          ? { ...agency.properties, installs: input.properties.installs }
          : undefined;
      await tx
        .update(agencies)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.email !== undefined ? { email: input.email } : {}),
          ...flagsOf(input),
          ...(properties ? { properties } : {}),
          ...(twilio !== undefined ? { twilio_config: sealTwilio(deps, twilio ?? {}) } : {}),
          updated_at: new Date(),
        })
        .where(eq(agencies.id, agency.id));
      if (input.whitelabel) await claimWhitelabel(c, { ...input.whitelabel, agencyId: agency.id });
      if (admin && input.user) {
        const u = input.user;
        await updateUser(c, {
          id: admin.id,
          emailField: 'user.email',
          set: {
            ...(u.email !== undefined ? { email: u.email } : {}),
            ...(u.firstName !== undefined ? { first_name: u.firstName } : {}),
            ...(u.lastName !== undefined ? { last_name: u.lastName } : {}),
          },
        });
      }
      await audit(c, {
        action: 'agency.update',
        actorId: auditActorId(c),
        agencyId: agency.id,
        data: { fields: Object.keys(input).filter((k) => k !== 'twilioConfig' && k !== 'id') },
        ...auditClient(c),
      });
    }),
  );
  return presentAgency(ctx, agency);
}

/** The agencies of a bulk call: every id must exist (else 404) and none may be the main agency. */
async function bulkTargets(ctx: Ctx, ids: number[], field: string) {
  const unique = [...new Set(ids)];
  const rows = await ctx.db
    .select()
    .from(agencies)
    .where(agencyScope(ctx, inArray(agencies.id, unique)));
  if (rows.length !== unique.length) throw notFound();
  if (rows.some((r) => r.is_main)) throw invalid(field, 'agencies.main_protected');
  return rows;
}

/**
 * Archives: the agency goes to the archived list, its site stops answering, and every one of its users
 * (agency and business users) is suspended: disabled, signed out, and marked as suspended by the agency,
 * so that a restore resumes exactly them, not users someone had disabled on purpose.
 */
async function archiveRows(ctx: Ctx, rows: AgencyRow[]) {
  let n = 0;
  for (const agency of rows) {
    if (agency.status !== 'active') continue;
    const disabled = await suspendTenantUsers(ctx, { level: 'agency', agencyId: agency.id });
    await ctx.db
      .update(agencies)
      .set({ status: 'archived', active: false, archived_at: new Date(), updated_at: new Date() })
      .where(eq(agencies.id, agency.id));
    await audit(ctx, {
      action: 'agency.archive',
      actorId: auditActorId(ctx),
      agencyId: agency.id,
      data: { disabled_users: disabled.length },
      ...auditClient(ctx),
    });
    n++;
  }
  return n;
}

async function restoreRows(ctx: Ctx, rows: AgencyRow[]) {
  let n = 0;
  for (const agency of rows) {
    if (agency.status !== 'archived') continue;
    await resumeTenantUsers(ctx, { level: 'agency', agencyId: agency.id });
    await ctx.db
      .update(agencies)
      .set({ status: 'active', active: true, archived_at: null, updated_at: new Date() })
      .where(eq(agencies.id, agency.id));
    await audit(ctx, {
      action: 'agency.restore',
      actorId: auditActorId(ctx),
      agencyId: agency.id,
      ...auditClient(ctx),
    });
    n++;
  }
  return n;
}

export async function archiveAgencies(ctx: Ctx, input: { ids: number[]; field?: string }) {
  return inTransaction(ctx, async (tx) =>
    archiveRows(tx, await bulkTargets(tx, input.ids, input.field ?? 'ids')),
  );
}

export async function restoreAgencies(ctx: Ctx, input: { ids: number[] }) {
  return inTransaction(ctx, async (tx) => restoreRows(tx, await bulkTargets(tx, input.ids, 'ids')));
}

/**
 * Permanent delete of archived agencies. The row stays with status 'deleted' (its businesses, users and
 * audit entries still point at it), drops out of every list and lookup, and gives up its domain and
 * subdomain (kept in settings.deleted_whitelabel for the record) so that they can be used again.
 */
export async function deleteAgencies(ctx: Ctx, input: { ids: number[] }) {
  return inTransaction(ctx, async (c) => {
    const tx = c.db;
    const rows = await bulkTargets(c, input.ids, 'ids');
    if (rows.some((r) => r.status !== 'archived')) throw invalid('ids', 'agencies.not_archived');
    for (const agency of rows) {
      await removeWhitelabels(c, { agencyId: agency.id });
      await tx
        .update(agencies)
        .set({
          status: 'deleted',
          active: false,
          domain: null,
          subdomain: null,
          settings: {
            ...agency.settings,
            deleted_whitelabel: { domain: agency.domain, subdomain: agency.subdomain },
          },
          updated_at: new Date(),
        })
        .where(eq(agencies.id, agency.id));
      await audit(c, {
        action: 'agency.delete',
        actorId: auditActorId(c),
        agencyId: agency.id,
        data: { name: agency.name, domain: agency.domain, subdomain: agency.subdomain },
        ...auditClient(c),
      });
    }
    return rows.length;
  });
}

/** The landing texts worth keeping: empty texts and languages left with none are dropped. */
function keptLandingTexts(texts: TLandingTexts): TLandingTexts {
  const kept: TLandingTexts = {};
  for (const lang of LANDING_LANGUAGES) {
    const set = Object.fromEntries(Object.entries(texts[lang] ?? {}).filter(([, text]) => text?.trim()));
    if (Object.keys(set).length > 0) kept[lang] = set;
  }
  return kept;
}

/** Branding, notification settings and the white-label / powered-by properties. */
export async function updateSettings(ctx: Ctx, input: TAgencySettingsRequest & { id: number }) {
  const agency = await findAgency(ctx, input);
  const branding = { ...agency.branding };
  if (input.title !== undefined) branding.title = input.title;
  if (input.supportEmail !== undefined) branding.supportEmail = input.supportEmail || null;
  if (input.address !== undefined) branding.address = input.address || null;
  if (input.landingPage !== undefined) branding.landingPage = input.landingPage;
  if (input.landingTexts !== undefined) branding.landingTexts = keptLandingTexts(input.landingTexts);
  if (input.custom_script !== undefined)
    branding.custom_script = input.custom_script?.trim() ? input.custom_script : null;
  if (input.marketingUrl !== undefined) {
    // The marketing site is where the main agency's '/' goes (ADR 077); no other agency's '/' goes there.
    if (input.marketingUrl && !agency.is_main)
      throw invalid('marketingUrl', 'agencies.marketing_url_main_only');
    if (input.marketingUrl) branding.marketingUrl = input.marketingUrl;
    else delete branding.marketingUrl;
  }
  const properties = { ...agency.properties };
  if (input.properties?.whiteLabel)
    properties.whiteLabel = { ...properties.whiteLabel, ...input.properties.whiteLabel };
  if (input.properties?.poweredBy)
    properties.poweredBy = { ...properties.poweredBy, ...input.properties.poweredBy };
  const settings = { ...agency.settings };
  if (input.notification)
    settings.notification = { ...(settings.notification as object | undefined), ...input.notification };
  await ctx.db
    .update(agencies)
    .set({ branding, properties, settings, updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  return presentAgency(ctx, agency);
}

export async function updateStripeSetting(ctx: Ctx, input: TStripeSettingRequest & { id: number }) {
  const { deps } = ctx;
  const agency = await findAgency(ctx, input);
  let keys = { publicKey: input.publicKey, secretKey: input.secretKey };
  if (input.sandbox) {
    // A Stripe sandbox account of the agency's own (ADR 076): card payments on a laptop, no Stripe account.
    if (!deps.payments.sandbox) throw invalid('sandbox', 'agencies.stripe_sandbox_off');
    const made = await deps.payments.sandbox.createAccount();
    keys = { publicKey: made.publishableKey, secretKey: made.secretKey };
  }
  await inTransaction(ctx, async (c) => {
    await c.db
      .update(agencies)
      .set({
        stripe_config: {
          publicKey: keys.publicKey,
          secretKey:
            keys.secretKey !== undefined ? sealed(deps, keys.secretKey) : agency.stripe_config.secretKey,
        },
        updated_at: new Date(),
      })
      .where(eq(agencies.id, agency.id));
    await audit(c, {
      action: 'agency.stripe_setting',
      actorId: auditActorId(c),
      agencyId: agency.id,
      data: { secret_key_changed: keys.secretKey !== undefined, sandbox: input.sandbox === true },
      ...auditClient(c),
    });
  });
  return presentAgency(ctx, agency);
}

/**
 * An agency's card-payment keys, the secret opened (the subscriptions module's seller of the agency's
 * businesses), and whether it is the main agency; null without the agency. Keys are null until both are set.
 */
export async function agencyPaymentKeys(ctx: Ctx, input: { agencyId: number }) {
  const [row] = await acrossTenants(ctx, 'a buyer pays its seller’s Stripe account')
    .db.select({ is_main: agencies.is_main, stripe: agencies.stripe_config, name: agencies.name })
    .from(agencies)
    .where(eq(agencies.id, input.agencyId));
  if (!row) return null;
  const { publicKey, secretKey } = row.stripe;
  return {
    isMain: row.is_main,
    name: row.name,
    keys:
      publicKey && secretKey
        ? { publishableKey: publicKey, secretKey: ctx.deps.secrets.open(secretKey) }
        : null,
  };
}

/**
 * What an agency's plan gives it (ADR 076): installs to hand out, Zapier, departments, remove branding.
 * Called by the subscriptions module when the agency subscribes or changes plan.
 */
export async function applyAgencyPlan(
  ctx: Ctx,
  input: {
    agencyId: number;
    features: { Installs: number; Zapier: boolean; Department: boolean; RemoveBranding: boolean };
  },
) {
  const [agency] = await ctx.db
    .select({ properties: agencies.properties })
    .from(agencies)
    .where(eq(agencies.id, input.agencyId))
    .for('update');
  if (!agency) throw notFound();
  const f = input.features;
  await ctx.db
    .update(agencies)
    .set({
      properties: { ...agency.properties, installs: f.Installs },
      zapier_enabled: f.Zapier,
      department_enabled: f.Department,
      remove_branding: f.RemoveBranding,
      updated_at: new Date(),
    })
    .where(eq(agencies.id, input.agencyId));
}

/** Adds installs an agency bought (an installs package) to what it may hand out. */
export async function addAgencyInstalls(ctx: Ctx, input: { agencyId: number; quantity: number }) {
  await ctx.db
    .update(agencies)
    .set({
      properties: sql`jsonb_set(${agencies.properties}, '{installs}', to_jsonb(coalesce((${agencies.properties}->>'installs')::int, 0) + ${input.quantity}))`,
      updated_at: new Date(),
    })
    .where(eq(agencies.id, input.agencyId));
}

/** The agency's own landing texts (PUT /v1/agencies/landing-texts): empty texts and languages dropped. */
export async function updateLandingTexts(ctx: Ctx, input: { texts: TLandingTexts }) {
  const agency = await ownAgency(ctx);
  const [row] = await ctx.db
    .update(agencies)
    .set({
      branding: sql`${agencies.branding} || jsonb_build_object('landingTexts', ${JSON.stringify(keptLandingTexts(input.texts))}::jsonb)`,
      updated_at: new Date(),
    })
    .where(eq(agencies.id, agency.id))
    .returning();
  return presentAgency(ctx, row ?? agency);
}

export async function updateCustomScript(ctx: Ctx, input: { script: string | null }) {
  const { script } = input;
  const agency = await ownAgency(ctx);
  await ctx.db
    .update(agencies)
    .set({ branding: { ...agency.branding, custom_script: script || null }, updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  return presentAgency(ctx, agency);
}

export async function updatePopup(ctx: Ctx, input: TPopupPaymentRequest & { id: number }) {
  const { id, ...fields } = input;
  const agency = await findAgency(ctx, { id });
  if (fields.plan_id != null && !(await isAgencyPlan(ctx, { agencyId: agency.id, planId: fields.plan_id })))
    throw invalid('plan_id', 'validation.in');
  const popup = { ...(agency.settings.popup as object | undefined), ...fields };
  await ctx.db
    .update(agencies)
    .set({ settings: { ...agency.settings, popup }, updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  return presentAgency(ctx, agency);
}

/** An Admin sets the agency admin's password; every session of that user ends. */
export async function changeAgencyPassword(ctx: Ctx, input: { id: number; password: string }) {
  const agency = await findAgency(ctx, input);
  const admin = await agencyAdminOf(ctx, { agencyId: agency.id });
  if (!admin) throw invalid('password', 'agencies.no_agency_admin');
  await setPassword(ctx, {
    user: { id: admin.id, agency_id: agency.id, business_id: null },
    password: input.password,
    audit: { action: 'agency.change_password' },
  });
}

/**
 * A Twilio account checked against the carrier before anything is saved: refused credentials are a 422 on
 * `field` (nothing changes).
 */
async function checkedTwilioConfig(
  deps: Deps,
  input: { accountSid: string; authToken: string },
  field: string,
): Promise<{ accountSid: string; authToken: string }> {
  try {
    await deps.carrier.verify(input);
  } catch (err) {
    if (!(err instanceof CarrierError)) throw err;
    deps.log.info({ code: err.code, status: err.status }, 'agency setup: carrier refused the account');
    throw invalid(field, err.isAuthentication ? 'agencies.twilio_refused' : 'agencies.twilio_unreachable');
  }
  return input;
}

/**
 * The carrier account a Setup form asks for: a new sandbox account named after its owner, or the Twilio
 * credentials checked with the carrier (refused ones throw a 422 and nothing is saved).
 */
async function newCarrierConfig(
  deps: Deps,
  input: Pick<TTwilioSetupInput, 'sandbox' | 'accountSid' | 'authToken'>,
  name: string,
): Promise<{ accountSid: string; authToken: string; sandbox?: true }> {
  if (input.sandbox) {
    let account: { sid: string; authToken: string };
    try {
      account = deps.carrier.createSandboxAccount(name);
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err;
      throw invalid('sandbox', 'agencies.sandbox_off');
    }
    return { accountSid: account.sid, authToken: account.authToken, sandbox: true };
  }
  return checkedTwilioConfig(
    deps,
    { accountSid: input.accountSid ?? '', authToken: input.authToken ?? '' },
    'authToken',
  );
}

/**
 * Agency Setup (spec 000 §4): the agency's own Twilio account, checked against the carrier BEFORE it is
 * saved (refused credentials save nothing), or the sandbox carrier: a sandbox account is made for the
 * agency and stored the same way, marked `sandbox`. The auth token is sealed at rest (ADR 016).
 */
export async function updateTwilioConfig(ctx: Ctx, input: TTwilioSetupInput & { id: number }) {
  const { deps } = ctx;
  const agency = await findAgency(ctx, input);
  const config = await newCarrierConfig(deps, input, agency.name);
  await ctx.db
    .update(agencies)
    .set({ twilio_config: sealTwilio(deps, config), updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  publish(ctx, carrierAccountChanged, { agencyId: agency.id, businessId: null });
  return presentAgency(ctx, agency);
}

/**
 * A business's own carrier account (ADR 093; PUT /v1/agencies/{business_id}/twilio-config by its
 * AgencyAdmin): a Twilio account checked with the carrier before it is saved (refused credentials save
 * nothing), or a new sandbox account of its own, or `inherit`: back to the agency's account. Another
 * agency's business is a 404 before the carrier is asked anything. The token is sealed at rest.
 */
export async function updateBusinessTwilioConfig(ctx: Ctx, input: TCarrierAccountInput & { id: number }) {
  const { deps } = ctx;
  if (ctx.tenant.level !== 'agency') throw new AppError('FORBIDDEN');
  const agencyId = ctx.tenant.agencyId;
  const business = await businessInTenant(ctx, input);
  const config = input.inherit ? null : await newCarrierConfig(deps, input, business.name);
  const saved = await setBusinessCarrierConfig(ctx, {
    id: business.id,
    config: config && sealTwilio(deps, config),
  });
  publish(ctx, carrierAccountChanged, { agencyId, businessId: business.id });
  return saved;
}

export async function twilioStatus(ctx: Ctx, input: { id: number }) {
  const agency = await findAgency(ctx, input);
  const cfg = agency.twilio_config;
  return {
    configured: Boolean(cfg.accountSid && cfg.authToken),
    accountSid: maskSid(cfg.accountSid),
    sandbox: cfg.sandbox === true,
  };
}

/** Installs the agency may still hand out: the businesses module's count, the one its limit enforces. */
export async function installStats(ctx: Ctx, input: { id: number }) {
  const agency = await findAgency(ctx, input);
  const stats = await agencyInstallStats(ctx, { agencyId: agency.id });
  return { total_installs: stats.total_installs, available_installs: stats.available_installs };
}

export async function getInternationals(ctx: Ctx) {
  const agency = await ownAgency(ctx);
  return agency.allowed_countries;
}

export async function setInternationals(ctx: Ctx, input: { countries: string[] }) {
  const { countries } = input;
  const agency = await ownAgency(ctx);
  await ctx.db
    .update(agencies)
    .set({ allowed_countries: countries, updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  return countries;
}

/** The agency e-mails the admins of its businesses (all, or the ones named); returns how many got it. */
export async function sendNotification(
  ctx: Ctx,
  input: { business_ids?: number[]; subject: string; message: string },
) {
  const agency = await ownAgency(ctx);
  let businessIds: number[];
  if (input.business_ids) {
    const wanted = [...new Set(input.business_ids)];
    const found = await liveBusinessIds(ctx, { agencyId: agency.id, ids: wanted });
    if (found.length !== wanted.length) throw notFound();
    businessIds = wanted;
  } else {
    businessIds = await liveBusinessIds(ctx, { agencyId: agency.id });
  }
  if (businessIds.length === 0) return 0;
  const recipients = await activeBusinessAdminIds(ctx, { agencyId: agency.id, businessIds });
  let sent = 0;
  for (const userId of recipients) {
    const mail = { userId, subject: input.subject, text: input.message };
    if (await sendNotificationMail(ctx, mail)) sent++;
  }
  return sent;
}

// ---------------------------------------------------------------------------------------------------
// What other modules read of agencies.

/**
 * Where a user's mail comes from: the agency's site (links), its title, and, for an agency's users and
 * businesses, the agency's name as the sender's name and its support address as Reply-To (white-label
 * mail). Platform users, and the main agency's, get the platform's MAIL_FROM. The auth module's port.
 */
export async function mailSite(ctx: Ctx, input: { agencyId: number | null }): Promise<MailSite> {
  const [agency] = await ctx.db
    .select()
    .from(agencies)
    .where(input.agencyId ? eq(agencies.id, input.agencyId) : eq(agencies.is_main, true));
  const own = agency && !agency.is_main ? agency : undefined;
  return {
    url: agencySiteUrl(ctx.deps.config, agency),
    title: agency?.branding.title ?? agency?.name ?? 'Start Texting Now',
    name: agency?.name ?? 'Start Texting Now',
    support: agency?.branding.supportEmail ?? agency?.email ?? null,
    sender: own ? { fromName: own.name, replyTo: own.branding.supportEmail ?? own.email ?? null } : {},
  };
}

/** The names of these agencies, by id (the businesses module's port). */
export async function agencyNames(ctx: Ctx, input: { ids: number[] }): Promise<Map<number, string>> {
  if (input.ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: agencies.id, name: agencies.name })
    .from(agencies)
    .where(inArray(agencies.id, input.ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The installs an agency may hand out (properties.installs; none set means none), null without the
 * agency; `lock` locks its row for the caller's transaction (the businesses module's port).
 */
export async function installAllowance(ctx: Ctx, input: { agencyId: number; lock?: boolean }) {
  const query = ctx.db
    .select({ properties: agencies.properties })
    .from(agencies)
    .where(eq(agencies.id, input.agencyId));
  const [row] = input.lock ? await query.for('update') : await query;
  return row ? Math.max(0, Math.trunc(Number(row.properties.installs ?? 0))) : null;
}

/** What a user's profile shows of its agency (spec 000 §3); null without one. */
export async function agencyOfUser(ctx: Ctx, input: { agencyId: number | null }) {
  if (input.agencyId === null) return null;
  const [agency] = await ctx.db
    .select()
    .from(agencies)
    .where(scope(ctx, { agency_id: agencies.id }, eq(agencies.id, input.agencyId)));
  if (!agency) return null;
  return {
    zapier: Boolean(agency.zapier_enabled),
    has_twilio_setup: Boolean(agency.twilio_config.accountSid),
    carrier_sandbox: Boolean(agency.twilio_config.accountSid && agency.twilio_config.sandbox === true),
    agency_has_stripe_config: Boolean(agency.stripe_config.publicKey),
    agency: {
      id: agency.id,
      name: agency.name,
      email: agency.email,
      domain: agency.domain,
      subdomain: agency.subdomain,
      is_main: agency.is_main,
      is_template: agency.is_template,
      free_fee: agency.free_fee,
      active: agency.active,
      zapier_enabled: agency.zapier_enabled,
      zapier_free: agency.zapier_free,
      department_enabled: agency.department_enabled,
      remove_branding: agency.remove_branding,
      profanity_enabled: agency.profanity_enabled,
      properties: {
        twProfileSid: agency.properties.twProfileSid ?? null,
        twCampaignSid: agency.properties.twCampaignSid ?? null,
      },
    },
  };
}

/** Whether an agency exists (whatever its status). */
export async function agencyExists(ctx: Ctx, input: { id: number }) {
  const [row] = await ctx.db.select({ id: agencies.id }).from(agencies).where(eq(agencies.id, input.id));
  return Boolean(row);
}

/** The main agency's id (the platform's own agency, on the main domain), or null before the first start. */
export async function mainAgencyId(ctx: Ctx): Promise<number | null> {
  const [row] = await acrossTenants(ctx, 'which agency is the platform’s own')
    .db.select({ id: agencies.id })
    .from(agencies)
    .where(eq(agencies.is_main, true))
    .orderBy(asc(agencies.id))
    .limit(1);
  return row?.id ?? null;
}

/**
 * The template agencies (not deleted): impersonating one lands on the business automations (spec 000 §4),
 * and their businesses' automations are every agency's templates (ADR 070).
 */
export async function templateAgencyIds(ctx: Ctx): Promise<number[]> {
  const rows = await acrossTenants(ctx, 'the template agencies serve every agency')
    .db.select({ id: agencies.id })
    .from(agencies)
    .where(and(eq(agencies.is_template, true), ne(agencies.status, 'deleted')))
    .orderBy(asc(agencies.id));
  return rows.map((r) => r.id);
}

/** A query of the ids of agencies that are not deleted, optionally whose name matches a LIKE pattern. */
export function liveAgencyIds(ctx: Ctx, input: { nameLike?: string }) {
  return ctx.db
    .select({ id: agencies.id })
    .from(agencies)
    .where(
      and(ne(agencies.status, 'deleted'), input.nameLike ? ilike(agencies.name, input.nameLike) : undefined),
    );
}

/** Names, statuses and sites of some agencies. */
export async function agencySummaries(ctx: Ctx, input: { ids: number[] }) {
  if (input.ids.length === 0) return [];
  return ctx.db
    .select({
      id: agencies.id,
      name: agencies.name,
      status: agencies.status,
      is_template: agencies.is_template,
      is_main: agencies.is_main,
      subdomain: agencies.subdomain,
      domain: agencies.domain,
    })
    .from(agencies)
    .where(inArray(agencies.id, input.ids));
}

/**
 * Which active agency a host belongs to: the main domain (and www.) is the main agency's,
 * <subdomain>.<MAIN_DOMAIN> is that agency's white-label subdomain, anything else a custom domain.
 */
export async function agencyForHost(
  ctx: Pick<Ctx, 'db' | 'deps'>,
  input: { host: string },
): Promise<{ agency?: SiteAgency; isMainDomain: boolean }> {
  const host = normalizeHost(input.host);
  const main = ctx.deps.config.mainDomain;
  const isMainDomain = isMainDomainHost(ctx.deps.config, host);
  const active = eq(agencies.status, 'active');
  const find = async (where: SQL | undefined) => {
    const [agency] = await acrossTenants(ctx, 'which agency serves a host is public')
      .db.select()
      .from(agencies)
      .where(and(where, active))
      .limit(1);
    return agency;
  };
  if (isMainDomain) return { agency: await find(eq(agencies.is_main, true)), isMainDomain };
  if (host.endsWith(`.${main}`)) {
    const sub = host.slice(0, -(main.length + 1));
    if (!sub.includes('.')) {
      const agency = await find(sql`lower(${agencies.subdomain}) = ${sub}`);
      if (agency) return { agency, isMainDomain };
    }
  }
  return { agency: await find(sql`lower(${agencies.domain}) = ${host}`), isMainDomain };
}

/**
 * The address of an agency's own site: its custom domain, else its subdomain of the main domain (the main
 * agency: the main domain), with PUBLIC_URL's scheme and port. What its customers may see: the embed code
 * names it, never the platform's own host (issue 17).
 */
export async function agencySiteAddress(
  ctx: Pick<Ctx, 'db' | 'deps'>,
  input: { id: number },
): Promise<string> {
  const [row] = await ctx.db
    .select({ domain: agencies.domain, subdomain: agencies.subdomain, is_main: agencies.is_main })
    .from(agencies)
    .where(eq(agencies.id, input.id));
  return agencySiteUrl(ctx.deps.config, row);
}

/** Whether a white-label domain (or a subdomain of the main domain) is still free. */
export async function domainAvailable(ctx: Ctx, input: { domain: string }) {
  const host = normalizeHost(input.domain);
  const main = ctx.deps.config.mainDomain;
  if (host === main || host === `www.${main}`) return false;
  const sub = host.endsWith(`.${main}`)
    ? host.slice(0, -(main.length + 1))
    : host.includes('.')
      ? null
      : host;
  const [row] = await ctx.db
    .select({ id: agencies.id })
    .from(agencies)
    .where(
      sub !== null ? sql`lower(${agencies.subdomain}) = ${sub}` : sql`lower(${agencies.domain}) = ${host}`,
    )
    .limit(1);
  return !row;
}

/**
 * Whether the agency of that id lets its users in: true unless it is switched off, archived or deleted
 * (and for no agency at all). A condition for another module's query (the session check).
 */
export function agencyLetsIn(agencyId: SQLWrapper): SQL<boolean> {
  return sql<boolean>`coalesce((select ${agencies.active} and ${agencies.status} = 'active' from ${agencies} where ${agencies.id} = ${agencyId}), true)`;
}

/** A condition for another module's query: the agency of that id is named like the pattern. */
export function agencyNameMatches(agencyId: SQLWrapper, pattern: string): SQL {
  return sql`${agencyId} in (select ${agencies.id} from ${agencies} where ${agencies.name} ilike ${pattern})`;
}

/**
 * Whether the agency has a usable telephony set-up (its Twilio account or a sandbox account: a sid and a
 * token, as `agencyCarrierAccount` needs to call anyone).
 */
export async function agencyHasTelephony(ctx: Ctx, input: { id: number }): Promise<boolean> {
  const [row] = await ctx.db
    .select({ cfg: agencies.twilio_config })
    .from(agencies)
    .where(eq(agencies.id, input.id));
  return Boolean(row?.cfg.accountSid && row.cfg.authToken);
}

/**
 * What texting needs of an agency (issue 10): its name and support e-mail (the HELP reply) and whether
 * its profanity filter is on.
 */
export async function agencyMessaging(
  ctx: Pick<Ctx, 'db'>,
  input: { id: number },
): Promise<{ name: string; supportEmail: string | null; profanityEnabled: boolean } | null> {
  const [row] = await ctx.db
    .select({
      name: agencies.name,
      email: agencies.email,
      branding: agencies.branding,
      profanity: agencies.profanity_enabled,
    })
    .from(agencies)
    .where(eq(agencies.id, input.id));
  if (!row) return null;
  return {
    name: row.name,
    supportEmail: row.branding.supportEmail || row.email || null,
    profanityEnabled: row.profanity,
  };
}

// ---------------------------------------------------------------------------------------------------
// Sign-ups from the order pages (issue 22): the orders module composes these with billing.

/**
 * A new agency from the order form (spec 000 §2) and its AgencyAdmin, in the caller's transaction (the
 * caller subscribes it before committing): not free_fee, its white-label subdomain (and custom domain,
 * when given) claimed, the questionnaire's answers kept in its settings (`signup`). Errors name the
 * form's fields: email, subdomain, domain.
 */
export async function createSignupAgency(
  ctx: Ctx,
  input: {
    name: string;
    email: string;
    password: string;
    firstName: string;
    lastName: string;
    phone: string;
    subdomain: string;
    domain?: string;
    signup: Record<string, unknown>;
  },
): Promise<{ agencyId: number; userId: number }> {
  if (await isEmailTaken(ctx, { email: input.email })) throw invalid('email', 'validation.email_taken');
  const main = ctx.deps.config.mainDomain;
  const subHost = `${input.subdomain}.${main}`;
  if (
    !(await domainAvailable(ctx, { domain: subHost })) ||
    (await whitelabelHostTaken(ctx, { agencyId: 0, host: subHost }))
  )
    throw invalid('subdomain', 'agencies.domain_taken');
  const custom = input.domain ? normalizeHost(input.domain) : null;
  if (custom) {
    const onMain = custom === main || custom.endsWith(`.${main}`);
    const [other] = await ctx.db
      .select({ id: agencies.id })
      .from(agencies)
      .where(sql`lower(${agencies.domain}) = ${custom}`)
      .limit(1);
    if (onMain || other || (await whitelabelHostTaken(ctx, { agencyId: 0, host: custom })))
      throw invalid('domain', 'agencies.domain_taken');
  }
  return withSignupUniqueErrors(() =>
    inTransaction(ctx, async (c) => {
      const [agency] = await c.db
        .insert(agencies)
        .values({
          name: input.name,
          email: input.email,
          free_fee: false,
          subdomain: input.subdomain,
          domain: custom,
          branding: { title: input.name },
          properties: { whiteLabel: { companyName: input.name, phone: input.phone } },
          settings: { signup: input.signup },
        })
        .returning({ id: agencies.id });
      if (!agency) throw new AppError('CONFLICT');
      await setWhitelabel(c, {
        agencyId: agency.id,
        host: custom ?? subHost,
        type: custom ? 'domain' : 'subdomain',
      });
      const userId = await createUser(c, {
        email: input.email,
        password: input.password,
        role: 'AgencyAdmin',
        firstName: input.firstName,
        lastName: input.lastName,
        phone: input.phone,
        agencyId: agency.id,
      });
      await audit(c, {
        action: 'agency.signup',
        actorId: null,
        agencyId: agency.id,
        targetUserId: userId,
        data: { name: input.name, subdomain: input.subdomain, domain: custom },
        ...auditClient(c),
      });
      return { agencyId: agency.id, userId };
    }),
  );
}

/** A unique index caught a race the sign-up's checks did not: the same 422s, on the form's fields. */
async function withSignupUniqueErrors<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
    if ((e.code ?? e.cause?.code) !== '23505') throw err;
    const constraint = e.constraint ?? e.cause?.constraint ?? '';
    if (constraint.startsWith('users_email')) throw invalid('email', 'validation.email_taken');
    if (constraint.includes('subdomain')) throw invalid('subdomain', 'agencies.domain_taken');
    throw invalid('domain', 'agencies.domain_taken');
  }
}

/** What an order page and a bill need of an agency: its name, e-mail, card payments and popup. */
export async function agencyForOrders(ctx: Ctx, input: { id: number }) {
  const [row] = await acrossTenants(ctx, 'the seller of an order page')
    .db.select({
      id: agencies.id,
      name: agencies.name,
      email: agencies.email,
      is_main: agencies.is_main,
      status: agencies.status,
      stripe: agencies.stripe_config,
      settings: agencies.settings,
    })
    .from(agencies)
    .where(eq(agencies.id, input.id));
  if (!row) return null;
  const popup = (row.settings.popup ?? {}) as {
    enabled?: boolean;
    plan_id?: number | null;
    title?: string;
    description?: string;
    button_text?: string;
  };
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    is_main: row.is_main,
    active: row.status === 'active',
    /** Card payments enabled (spec agency_has_stripe_config): both keys set. */
    cardPayments: Boolean(row.stripe.publicKey && row.stripe.secretKey),
    popup: {
      enabled: popup.enabled ?? false,
      plan_id: popup.plan_id ?? null,
      title: popup.title ?? '',
      description: popup.description ?? '',
      button_text: popup.button_text ?? '',
    },
  };
}

/** The agency's SMS registration properties (spec 000 §3): its primary profile, profile, campaign. */
export type RegistrationProperties = Pick<
  AgencyProperties,
  'sendRegistration' | 'twPrimaryProfileSid' | 'twProfileSid' | 'twCampaignSid'
>;

export async function agencyRegistrationProperties(
  ctx: Ctx,
  input: { agencyId: number },
): Promise<RegistrationProperties & { sandbox: boolean; hasCarrier: boolean }> {
  const [row] = await ctx.db
    .select({ properties: agencies.properties, cfg: agencies.twilio_config })
    .from(agencies)
    .where(eq(agencies.id, input.agencyId))
    .limit(1);
  if (!row) throw notFound();
  const p = row.properties;
  return {
    sendRegistration: p.sendRegistration ?? false,
    ...(p.twPrimaryProfileSid ? { twPrimaryProfileSid: p.twPrimaryProfileSid } : {}),
    ...(p.twProfileSid ? { twProfileSid: p.twProfileSid } : {}),
    ...(p.twCampaignSid ? { twCampaignSid: p.twCampaignSid } : {}),
    sandbox: row.cfg.sandbox === true,
    hasCarrier: Boolean(row.cfg.accountSid),
  };
}

/**
 * Writes the agency's SMS registration properties (the registration module follows the carrier's
 * statuses); a null removes the key. The banners of spec 000 §8 read them.
 */
export async function setAgencyRegistrationProperties(
  ctx: Ctx,
  input: {
    agencyId: number;
    set: { [K in keyof RegistrationProperties]?: RegistrationProperties[K] | null };
  },
): Promise<void> {
  const add: Record<string, unknown> = {};
  const remove: string[] = [];
  for (const [k, v] of Object.entries(input.set)) {
    if (v === undefined) continue;
    if (v === null) remove.push(k);
    else add[k] = v;
  }
  let expr = sql`(${agencies.properties} || ${JSON.stringify(add)}::jsonb)`;
  for (const k of remove) expr = sql`(${expr} - ${k}::text)`;
  await ctx.db
    .update(agencies)
    .set({ properties: expr, updated_at: new Date() })
    .where(eq(agencies.id, input.agencyId));
}
