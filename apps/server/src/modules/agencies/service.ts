import crypto from 'node:crypto';
import type {
  TAgencyListQuery,
  TAgencySettingsRequest,
  TCreateAgencyRequest,
  TPopupPaymentRequest,
  TStripeSettingRequest,
  TTwilioConfigInput,
  TUpdateAgencyRequest,
  TWhitelabelInput,
} from '@stn/contracts/agencies';
import { and, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import type { Actor } from '../../platform/auth/actor.ts';
import { hashPassword } from '../../platform/auth/passwords.ts';
import type { Config } from '../../platform/config.ts';
import type { Tx } from '../../platform/db/client.ts';
import { agencies, businesses, users, whitelabels } from '../../platform/db/schema.ts';
import type { Deps } from '../../platform/deps.ts';
import type { Client } from '../../platform/http/client.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { isSealed } from '../../platform/secrets.ts';
import { createUser, emailTaken, setPasswordOfUser } from '../accounts/service.ts';
import { requestPasswordReset, sendNotificationMail } from '../auth/email-tokens.ts';
import { revokeAllTokens } from '../auth/service.ts';
import { installStats as businessInstallStats } from '../businesses/business-accounts.ts';
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

export type { Client };

const DOMAIN_FIELD = 'whitelabel.domain';

// Twilio auth tokens and Stripe secret keys are sealed before they are written and opened only where
// they are used (ADR 016); no route answers them, sealed or not.
function sealed<T extends string | null | undefined>(deps: Deps, value: T): T {
  return (value && !isSealed(value) ? deps.secrets.seal(value) : value) as T;
}

function sealTwilio<T extends { authToken?: string | null }>(deps: Deps, cfg: T): T {
  return cfg.authToken ? { ...cfg, authToken: sealed(deps, cfg.authToken) } : cfg;
}

/** The auth token of the agency whose Twilio account this is, for the webhook signature check. */
export async function twilioAuthTokenBySid(deps: Deps, accountSid: string): Promise<string | null> {
  const [row] = await deps.db
    .select({ cfg: agencies.twilio_config })
    .from(agencies)
    .where(sql`${agencies.twilio_config}->>'accountSid' = ${accountSid}`)
    .limit(1);
  const token = row?.cfg.authToken;
  return token ? deps.secrets.open(token) : null;
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
 * Gives the agency its white-label host: the whitelabels row (one per agency, managed here) and the
 * agencies.domain/subdomain columns that site-data resolution reads, kept equal. A custom domain and a
 * subdomain of the main domain are both checked against every other agency and white-label entry.
 */
async function claimWhitelabel(tx: Tx, config: Config, agencyId: number, input: TWhitelabelInput) {
  const main = config.mainDomain;
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
  const entries = await tx
    .select({ id: whitelabels.id })
    .from(whitelabels)
    .where(and(ne(whitelabels.agency_id, agencyId), sql`lower(${whitelabels.domain}) = ${host}`))
    .limit(1);
  if (reserved || others.length > 0 || entries.length > 0)
    throw invalid(DOMAIN_FIELD, 'agencies.domain_taken');

  await tx
    .update(agencies)
    .set({
      domain: input.type === 'domain' ? host : null,
      subdomain: input.type === 'subdomain' ? value : null,
      updated_at: new Date(),
    })
    .where(eq(agencies.id, agencyId));
  const [existing] = await tx.select().from(whitelabels).where(eq(whitelabels.agency_id, agencyId)).limit(1);
  if (!existing) {
    await tx.insert(whitelabels).values({ agency_id: agencyId, domain: host, type: input.type });
  } else if (existing.domain !== host || existing.type !== input.type) {
    // A new host needs its own certificate.
    await tx
      .update(whitelabels)
      .set({
        domain: host,
        type: input.type,
        cert_status: 'none',
        cert_message: null,
        cert_requested_at: null,
        updated_at: new Date(),
      })
      .where(eq(whitelabels.id, existing.id));
    await tx
      .delete(whitelabels)
      .where(and(eq(whitelabels.agency_id, agencyId), ne(whitelabels.id, existing.id)));
  }
}

const FLAGS = [
  'free_fee',
  'is_template',
  'zapier_enabled',
  'zapier_free',
  'department_enabled',
  'remove_branding',
  'profanity_enabled',
] as const;
const flagsOf = (input: Partial<Pick<TCreateAgencyRequest, (typeof FLAGS)[number]>>) => {
  const out: Partial<AgencyRow> = {};
  for (const key of FLAGS) {
    const v = input[key];
    if (v !== undefined) out[key] = v;
  }
  return out;
};

export async function listAgencies(deps: Deps, actor: Actor, q: TAgencyListQuery) {
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = agencyScope(
    actor,
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
  const [total] = await deps.db.select({ n: count() }).from(agencies).where(where);
  const { limit, offset } = pageOf(q);
  const rows = await deps.db
    .select()
    .from(agencies)
    .where(where)
    .orderBy(desc(agencies.id))
    .limit(limit)
    .offset(offset);
  return listEnvelope(await presentAgencies(deps.db, rows), total?.n ?? 0, q);
}

export async function getAgency(deps: Deps, actor: Actor, id: number) {
  const agency = await findAgency(deps.db, actor, id);
  return presentAgency(deps.db, agency.id);
}

/** The create form of spec 000 §3: the agency, its AgencyAdmin and its white-label, all or nothing. */
export async function createAgency(deps: Deps, actor: Actor, input: TCreateAgencyRequest, client: Client) {
  if (await emailTaken(deps.db, input.user.email)) throw invalid('user.email', 'validation.email_taken');
  // Without a password the admin gets a link to choose one; nobody ever learns this random one.
  const password = input.user.password ?? crypto.randomBytes(24).toString('base64url');
  const id = await withUniqueErrors(() =>
    deps.db.transaction(async (tx) => {
      const [agency] = await tx
        .insert(agencies)
        .values({
          name: input.name,
          email: input.email ?? null,
          ...flagsOf(input),
          branding: { title: input.name },
          properties: input.properties?.installs !== undefined ? { installs: input.properties.installs } : {},
          twilio_config: sealTwilio(deps, input.twilioConfig ?? {}),
        })
        .returning();
      if (!agency) throw new AppError('CONFLICT');
      await claimWhitelabel(tx, deps.config, agency.id, input.whitelabel);
      const userId = await createUser(tx, {
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
      await audit(tx, {
        action: 'agency.create',
        actorId: actor.impersonatorId ?? actor.userId,
        agencyId: agency.id,
        targetUserId: userId,
        data: { name: input.name, whitelabel: input.whitelabel },
        ...client,
      });
      return agency.id;
    }),
  );
  if (!input.user.password) await requestPasswordReset(deps, input.user.email);
  return presentAgency(deps.db, id);
}

export async function updateAgency(
  deps: Deps,
  actor: Actor,
  id: number,
  input: TUpdateAgencyRequest,
  client: Client,
) {
  const agency = await findAgency(deps.db, actor, id);
  const admin = await agencyAdminOf(deps.db, agency.id);
  if (admin && input.user?.email && (await emailTaken(deps.db, input.user.email, admin.id)))
    throw invalid('user.email', 'validation.email_taken');
  await withUniqueErrors(() =>
    deps.db.transaction(async (tx) => {
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
          ...(input.twilioConfig !== undefined
            ? { twilio_config: sealTwilio(deps, input.twilioConfig ?? {}) }
            : {}),
          updated_at: new Date(),
        })
        .where(eq(agencies.id, agency.id));
      if (input.whitelabel) await claimWhitelabel(tx, deps.config, agency.id, input.whitelabel);
      if (admin && input.user) {
        const u = input.user;
        await tx
          .update(users)
          .set({
            ...(u.email !== undefined && u.email !== admin.email
              ? { email: u.email, email_verified_at: null }
              : {}),
            ...(u.firstName !== undefined ? { first_name: u.firstName } : {}),
            ...(u.lastName !== undefined ? { last_name: u.lastName } : {}),
            updated_at: new Date(),
          })
          .where(eq(users.id, admin.id));
      }
      await audit(tx, {
        action: 'agency.update',
        actorId: actor.impersonatorId ?? actor.userId,
        agencyId: agency.id,
        data: { fields: Object.keys(input).filter((k) => k !== 'twilioConfig') },
        ...client,
      });
    }),
  );
  return presentAgency(deps.db, agency.id);
}

/** The agencies of a bulk call: every id must exist (else 404) and none may be the main agency. */
async function bulkTargets(tx: Tx, actor: Actor, ids: number[], field: string) {
  const unique = [...new Set(ids)];
  const rows = await tx
    .select()
    .from(agencies)
    .where(agencyScope(actor, inArray(agencies.id, unique)));
  if (rows.length !== unique.length) throw notFound();
  if (rows.some((r) => r.is_main)) throw invalid(field, 'agencies.main_protected');
  return rows;
}

/**
 * Archives: the agency goes to the archived list, its site stops answering, and every one of its users
 * (agency and business users) is disabled and signed out. The ids disabled here are kept so that a
 * restore re-enables exactly them, not users someone had disabled on purpose.
 */
async function archiveRows(tx: Tx, actor: Actor, rows: AgencyRow[], client: Client) {
  let n = 0;
  for (const agency of rows) {
    if (agency.status !== 'active') continue;
    const disabled = await tx
      .update(users)
      .set({ active: false, updated_at: new Date() })
      .where(and(eq(users.agency_id, agency.id), eq(users.active, true)))
      .returning({ id: users.id });
    for (const u of disabled) await revokeAllTokens(tx, u.id);
    await tx
      .update(agencies)
      .set({
        status: 'archived',
        active: false,
        archived_at: new Date(),
        settings: { ...agency.settings, archived_user_ids: disabled.map((u) => u.id) },
        updated_at: new Date(),
      })
      .where(eq(agencies.id, agency.id));
    await audit(tx, {
      action: 'agency.archive',
      actorId: actor.impersonatorId ?? actor.userId,
      agencyId: agency.id,
      data: { disabled_users: disabled.length },
      ...client,
    });
    n++;
  }
  return n;
}

async function restoreRows(tx: Tx, actor: Actor, rows: AgencyRow[], client: Client) {
  let n = 0;
  for (const agency of rows) {
    if (agency.status !== 'archived') continue;
    const { archived_user_ids: ids, ...settings } = agency.settings as { archived_user_ids?: number[] };
    if (Array.isArray(ids) && ids.length > 0) {
      await tx
        .update(users)
        .set({ active: true, updated_at: new Date() })
        .where(and(eq(users.agency_id, agency.id), inArray(users.id, ids)));
    }
    await tx
      .update(agencies)
      .set({ status: 'active', active: true, archived_at: null, settings, updated_at: new Date() })
      .where(eq(agencies.id, agency.id));
    await audit(tx, {
      action: 'agency.restore',
      actorId: actor.impersonatorId ?? actor.userId,
      agencyId: agency.id,
      ...client,
    });
    n++;
  }
  return n;
}

export async function archiveAgencies(
  deps: Deps,
  actor: Actor,
  ids: number[],
  client: Client,
  field = 'ids',
) {
  return deps.db.transaction(async (tx) =>
    archiveRows(tx, actor, await bulkTargets(tx, actor, ids, field), client),
  );
}

export async function restoreAgencies(deps: Deps, actor: Actor, ids: number[], client: Client) {
  return deps.db.transaction(async (tx) =>
    restoreRows(tx, actor, await bulkTargets(tx, actor, ids, 'ids'), client),
  );
}

/**
 * Permanent delete of archived agencies. The row stays with status 'deleted' (its businesses, users and
 * audit entries still point at it), drops out of every list and lookup, and gives up its domain and
 * subdomain (kept in settings.deleted_whitelabel for the record) so that they can be used again.
 */
export async function deleteAgencies(deps: Deps, actor: Actor, ids: number[], client: Client) {
  return deps.db.transaction(async (tx) => {
    const rows = await bulkTargets(tx, actor, ids, 'ids');
    if (rows.some((r) => r.status !== 'archived')) throw invalid('ids', 'agencies.not_archived');
    for (const agency of rows) {
      await tx.delete(whitelabels).where(eq(whitelabels.agency_id, agency.id));
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
      await audit(tx, {
        action: 'agency.delete',
        actorId: actor.impersonatorId ?? actor.userId,
        agencyId: agency.id,
        data: { name: agency.name, domain: agency.domain, subdomain: agency.subdomain },
        ...client,
      });
    }
    return rows.length;
  });
}

/** Branding, notification settings and the white-label / powered-by properties. */
export async function updateSettings(deps: Deps, actor: Actor, id: number, input: TAgencySettingsRequest) {
  const agency = await findAgency(deps.db, actor, id);
  const branding = { ...agency.branding };
  if (input.title !== undefined) branding.title = input.title;
  if (input.supportEmail !== undefined) branding.supportEmail = input.supportEmail || null;
  if (input.address !== undefined) branding.address = input.address || null;
  if (input.landingPage !== undefined) branding.landingPage = input.landingPage;
  const properties = { ...agency.properties };
  if (input.properties?.whiteLabel)
    properties.whiteLabel = { ...properties.whiteLabel, ...input.properties.whiteLabel };
  if (input.properties?.poweredBy)
    properties.poweredBy = { ...properties.poweredBy, ...input.properties.poweredBy };
  const settings = { ...agency.settings };
  if (input.notification)
    settings.notification = { ...(settings.notification as object | undefined), ...input.notification };
  await deps.db
    .update(agencies)
    .set({ branding, properties, settings, updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  return presentAgency(deps.db, agency.id);
}

export async function updateStripeSetting(
  deps: Deps,
  actor: Actor,
  id: number,
  input: TStripeSettingRequest,
  client: Client,
) {
  const agency = await findAgency(deps.db, actor, id);
  await deps.db.transaction(async (tx) => {
    await tx
      .update(agencies)
      .set({
        stripe_config: {
          publicKey: input.publicKey,
          secretKey:
            input.secretKey !== undefined ? sealed(deps, input.secretKey) : agency.stripe_config.secretKey,
        },
        updated_at: new Date(),
      })
      .where(eq(agencies.id, agency.id));
    await audit(tx, {
      action: 'agency.stripe_setting',
      actorId: actor.impersonatorId ?? actor.userId,
      agencyId: agency.id,
      data: { secret_key_changed: input.secretKey !== undefined },
      ...client,
    });
  });
  return presentAgency(deps.db, agency.id);
}

export async function updateCustomScript(deps: Deps, actor: Actor, script: string | null) {
  const agency = await ownAgency(deps.db, actor);
  await deps.db
    .update(agencies)
    .set({ branding: { ...agency.branding, custom_script: script || null }, updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  return presentAgency(deps.db, agency.id);
}

export async function updatePopup(deps: Deps, actor: Actor, id: number, input: TPopupPaymentRequest) {
  const agency = await findAgency(deps.db, actor, id);
  const popup = { ...(agency.settings.popup as object | undefined), ...input };
  await deps.db
    .update(agencies)
    .set({ settings: { ...agency.settings, popup }, updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  return presentAgency(deps.db, agency.id);
}

/** An Admin sets the agency admin's password; every session of that user ends. */
export async function changeAgencyPassword(
  deps: Deps,
  actor: Actor,
  id: number,
  password: string,
  client: Client,
) {
  const agency = await findAgency(deps.db, actor, id);
  const admin = await agencyAdminOf(deps.db, agency.id);
  if (!admin) throw invalid('password', 'agencies.no_agency_admin');
  const hash = await hashPassword(password);
  await deps.db.transaction((tx) =>
    setPasswordOfUser(tx, { id: admin.id, agency_id: agency.id, business_id: null }, hash, {
      action: 'agency.change_password',
      actorId: actor.impersonatorId ?? actor.userId,
      ...client,
    }),
  );
}

export async function updateTwilioConfig(deps: Deps, actor: Actor, id: number, input: TTwilioConfigInput) {
  const agency = await findAgency(deps.db, actor, id);
  await deps.db
    .update(agencies)
    .set({
      twilio_config: sealTwilio(deps, { accountSid: input.accountSid, authToken: input.authToken }),
      updated_at: new Date(),
    })
    .where(eq(agencies.id, agency.id));
  return presentAgency(deps.db, agency.id);
}

export async function twilioStatus(deps: Deps, actor: Actor, id: number) {
  const agency = await findAgency(deps.db, actor, id);
  const cfg = agency.twilio_config;
  return { configured: Boolean(cfg.accountSid && cfg.authToken), accountSid: maskSid(cfg.accountSid) };
}

/** Installs the agency may still hand out: the businesses module's count, the one its limit enforces. */
export async function installStats(deps: Deps, actor: Actor, id: number) {
  const agency = await findAgency(deps.db, actor, id);
  const stats = await businessInstallStats(deps.db, agency.id);
  return { total_installs: stats.total_installs, available_installs: stats.available_installs };
}

export async function getInternationals(deps: Deps, actor: Actor) {
  const agency = await ownAgency(deps.db, actor);
  return agency.allowed_countries;
}

export async function setInternationals(deps: Deps, actor: Actor, countries: string[]) {
  const agency = await ownAgency(deps.db, actor);
  await deps.db
    .update(agencies)
    .set({ allowed_countries: countries, updated_at: new Date() })
    .where(eq(agencies.id, agency.id));
  return countries;
}

/** The agency e-mails the admins of its businesses (all, or the ones named); returns how many got it. */
export async function sendNotification(
  deps: Deps,
  actor: Actor,
  input: { business_ids?: number[]; subject: string; message: string },
) {
  const agency = await ownAgency(deps.db, actor);
  const live = and(eq(businesses.agency_id, agency.id), ne(businesses.status, 'deleted'));
  let businessIds: number[];
  if (input.business_ids) {
    const wanted = [...new Set(input.business_ids)];
    const found = await deps.db
      .select({ id: businesses.id })
      .from(businesses)
      .where(and(live, inArray(businesses.id, wanted)));
    if (found.length !== wanted.length) throw notFound();
    businessIds = wanted;
  } else {
    businessIds = (await deps.db.select({ id: businesses.id }).from(businesses).where(live)).map((b) => b.id);
  }
  if (businessIds.length === 0) return 0;
  const recipients = await deps.db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.agency_id, agency.id),
        inArray(users.business_id, businessIds),
        eq(users.role, 'BusinessAdmin'),
        eq(users.active, true),
      ),
    );
  let sent = 0;
  for (const r of recipients) {
    if (await sendNotificationMail(deps, r.id, { subject: input.subject, text: input.message })) sent++;
  }
  return sent;
}
