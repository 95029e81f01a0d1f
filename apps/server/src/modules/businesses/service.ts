import {
  contactsSettingsOf,
  messagesSettingsOf,
  type TBusinessContactsSettings,
  type TBusinessMessagesSettings,
  type TBusinessNotificationSettings,
  ZBusinessAnalyticsSettings,
  ZBusinessNotificationSettings,
} from '@stn/contracts/businesses';
import { and, asc, count, eq, inArray, ne, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { sharedCache } from '../../platform/cache.ts';
import { selectValues } from '../../platform/db/select-values.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { businessAdminOf } from '../users/service.ts';
import { createSignupBusiness, installStats, loadBusiness } from './business-accounts.ts';

export { createSignupBusiness };

import { businesses } from './tables.ts';

// What other modules may ask of the businesses module. Its routes use the module's own files.

/** An agency's installs: its allowance, what its non-deleted businesses hold, and what is left. */
export async function agencyInstallStats(ctx: Ctx, input: { agencyId: number }) {
  return installStats(ctx, input);
}

/** How many live (not deleted) businesses of the agency are on a plan. */
export async function businessesOnPlan(ctx: Ctx, input: { agencyId: number; planId: number }) {
  const [used] = await ctx.db
    .select({ n: count() })
    .from(businesses)
    .where(
      and(
        eq(businesses.agency_id, input.agencyId),
        eq(businesses.subscription_plan_id, input.planId),
        ne(businesses.status, 'deleted'),
      ),
    );
  return used?.n ?? 0;
}

/** The ids of the agency's live (not deleted) businesses, all of them or those of `ids` that are. */
export async function liveBusinessIds(ctx: Ctx, input: { agencyId: number; ids?: number[] }) {
  const rows = await ctx.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(
      and(
        eq(businesses.agency_id, input.agencyId),
        ne(businesses.status, 'deleted'),
        input.ids ? inArray(businesses.id, input.ids) : undefined,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * What the users module checks of a business: its owner, its seat limit and its departments switch (and the
 * installs and automations modules their limits).
 * `lock` takes the row's lock (inside a transaction), so that two concurrent creations cannot both take
 * the last seat or department.
 */
export async function businessLimits(ctx: Ctx, input: { id: number; lock?: boolean }) {
  const query = ctx.db
    .select({
      owner_id: businesses.owner_id,
      number_of_users: businesses.number_of_users,
      number_of_installs: businesses.number_of_installs,
      number_of_automations: businesses.number_of_automations,
      dep_enabled: businesses.dep_enabled,
      settings: businesses.settings,
    })
    .from(businesses)
    .where(eq(businesses.id, input.id));
  const [row] = input.lock ? await query.for('update') : await query;
  return row;
}

/**
 * Whether the business of that id lets its users in: true unless it is switched off, archived or deleted
 * (and for no business at all). A condition for another module's query (the session check).
 */
export function businessLetsIn(businessId: SQLWrapper): SQL<boolean> {
  return sql<boolean>`coalesce((select ${businesses.active} and ${businesses.status} = 'active' from ${businesses} where ${businesses.id} = ${businessId}), true)`;
}

/** The agency's live (not deleted) businesses, by id (the businesses export). */
export async function liveBusinessesOf(ctx: Ctx, input: { agencyId: number }) {
  return ctx.db
    .select()
    .from(businesses)
    .where(and(eq(businesses.agency_id, input.agencyId), ne(businesses.status, 'deleted')))
    .orderBy(asc(businesses.id));
}

/** The names of these businesses, by id. */
export async function businessNames(ctx: Ctx, input: { ids: number[] }): Promise<Map<number, string>> {
  if (input.ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: businesses.id, name: businesses.name })
    .from(businesses)
    .where(inArray(businesses.id, input.ids));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** A condition for another module's query: the business of that id is named like the pattern. */
export function businessNameMatches(businessId: SQLWrapper, pattern: string): SQL {
  return sql`${businessId} in (select ${businesses.id} from ${businesses} where ${businesses.name} ilike ${pattern})`;
}

/**
 * The business's calls this month and its limit, as a JSON subquery (a callback's checks are one
 * statement); `callUsageFrom` reads its value.
 */
export function callUsageSql(ctx: Ctx): SQL<unknown> {
  return callUsageOfSql(sql`${businessOf(ctx).businessId}`);
}

/** callUsageSql of the business `business`, an expression of the caller's statement (a slot). */
export const callUsageOfSql = (business: SQL): SQL<unknown> =>
  sql`(select json_build_object('used', b.number_of_calls, 'cap', b.calls)
    from businesses b where b.id = ${business})`;

export type CallUsage = { used: number; cap: number | null; reached: boolean };

/**
 * The business's calls this month against its limit (what `callUsageSql` answered); a limit of 0 (or none)
 * is no cap, as the web app shows it (∞).
 */
export function callUsageFrom(value: unknown): CallUsage {
  const row = value as { used?: number; cap?: number } | null | undefined;
  const used = Number(row?.used ?? 0);
  const cap = row?.cap && row.cap > 0 ? Number(row.cap) : null;
  return { used, cap, reached: cap !== null && used >= cap };
}

/** The business's calls this month against its limit (callUsageFrom). */
export async function callUsage(ctx: Ctx): Promise<CallUsage> {
  return callUsageFrom((await selectValues(ctx.db, { usage: callUsageSql(ctx) })).usage);
}

/**
 * The statement that counts one call against the business's monthly limit (`countCall`), for a caller's
 * statement to run as one of its parts (a `with` of telephony's call insert, ADR 123): it answers the
 * business's id, or no row when the limit is already reached (and nothing is counted).
 */
export function countCallSql(ctx: Ctx): SQL<unknown> {
  return countCallOfSql(sql`${businessOf(ctx).businessId}`);
}

/** countCallSql of the business `business`, an expression of the caller's statement (a slot, ADR 125). */
export const countCallOfSql = (business: SQL): SQL<unknown> =>
  sql`update businesses set number_of_calls = number_of_calls + 1
    where id = ${business} and (calls <= 0 or number_of_calls < calls) returning id`;

/**
 * Counts one call against the business's monthly limit, atomically: false (and nothing counted) when the
 * limit is already reached.
 */
export async function countCall(ctx: Ctx): Promise<boolean> {
  const { rows } = await ctx.db.execute(countCallSql(ctx));
  return rows.length > 0;
}

/** The business's text messages this month against its limit (0 or none: no cap). */
export async function messageUsage(
  ctx: Ctx,
): Promise<{ used: number; cap: number | null; reached: boolean }> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ used: businesses.number_of_messages, cap: businesses.messages })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  const used = row?.used ?? 0;
  const cap = row && row.cap > 0 ? row.cap : null;
  return { used, cap, reached: cap !== null && used >= cap };
}

/**
 * Counts `count` messages against the business's monthly limit, atomically. `enforce` (outgoing) refuses
 * (false, nothing counted) when the count would pass the limit; incoming messages are always counted.
 */
export async function countMessages(ctx: Ctx, input: { count: number; enforce: boolean }): Promise<boolean> {
  const { businessId } = businessOf(ctx);
  const rows = await ctx.db
    .update(businesses)
    .set({ number_of_messages: sql`${businesses.number_of_messages} + ${input.count}` })
    .where(
      and(
        eq(businesses.id, businessId),
        input.enforce
          ? sql`(${businesses.messages} <= 0 or ${businesses.number_of_messages} + ${input.count} <= ${businesses.messages})`
          : undefined,
      ),
    )
    .returning({ id: businesses.id });
  return rows.length > 0;
}

/** What the website widget shows of a business: its name and the modes it may offer (ADR 087's flags). */
type WidgetSide = {
  name: string;
  widget_type: 1 | 2 | 3;
  analytics: { gtag: boolean; data_layer: boolean } | null;
};

function widgetSideOf(
  row: { name: string; widget_type: number | null; settings: unknown } | undefined,
): WidgetSide {
  const t = row?.widget_type;
  // Only the flags leave, and only while the integration is on and names a target (ADR 087).
  const a = ZBusinessAnalyticsSettings.safeParse(
    (row?.settings as { analytics?: unknown } | undefined)?.analytics,
  );
  const on = a.success && a.data.enabled && (a.data.gtag || a.data.data_layer);
  return {
    name: row?.name ?? '',
    widget_type: t === 1 || t === 2 ? t : 3,
    analytics: on ? { gtag: a.data.gtag, data_layer: a.data.data_layer } : null,
  };
}

/**
 * What the website widget shows of the context's business: its name and the modes it may offer. Every
 * widget request asks: read with the business's settings (cachedSettings), which a save forgets.
 */
export async function businessForWidget(ctx: Ctx): Promise<WidgetSide> {
  return (await cachedSettings(ctx)).widget;
}

/** The business's name (the HELP reply). */
export async function businessName(ctx: Ctx): Promise<string> {
  return (await cachedSettings(ctx)).name;
}

/** The business's name and its own opt-out message (the STOP confirmation; ADR 094), null when it set none. */
export async function businessOptOut(ctx: Ctx): Promise<{ name: string; optOutMsg: string | null }> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ name: businesses.name, msg: businesses.opt_out_msg })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  return { name: row?.name ?? '', optOutMsg: row?.msg?.trim() || null };
}

// ---------------------------------------------------------------- contacts and messages settings (ADR 094)

/**
 * The settings read by other modules' busy paths (every inbound text asks the away reply, every staff
 * alert the notification switches and the name it is sent by), cached a few seconds per process
 * (platform/cache.ts): a save forgets its business at once here and, through the hub, in the deployment's
 * other processes; SETTINGS_TTL_MS bounds what a lost message costs.
 */
const SETTINGS_TTL_MS = 5_000;
type SettingsEntry = {
  name: string;
  contacts: TBusinessContactsSettings;
  messages: Omit<TBusinessMessagesSettings, 'opt_out_msg'>;
  notifications: TBusinessNotificationSettings;
  /** Its agency let it send through SendGrid (ADR 090). */
  sendgrid: boolean;
  widget: WidgetSide;
};
/** The cache of the businesses' settings. */
const businessSettingsCache = (deps: Deps) =>
  sharedCache<SettingsEntry>(deps, 'business-settings', SETTINGS_TTL_MS);

async function cachedSettings(ctx: Ctx): Promise<SettingsEntry> {
  const { businessId } = businessOf(ctx);
  return businessSettingsCache(ctx.deps).get(businessId, async () => {
    const [row] = await ctx.db
      .select({
        name: businesses.name,
        settings: businesses.settings,
        sendgrid: businesses.sendgrid_enabled,
        widget_type: businesses.widget_type,
      })
      .from(businesses)
      .where(eq(businesses.id, businessId));
    return {
      name: row?.name ?? '',
      widget: widgetSideOf(row),
      sendgrid: row?.sendgrid ?? false,
      contacts: contactsSettingsOf(row?.settings),
      messages: messagesSettingsOf(row?.settings),
      notifications: notificationSettingsOf(row?.settings),
    };
  });
}

/** Forgets what the processes cached of a business's settings (its settings were saved). */
export function forgetBusinessSettings(ctx: Ctx, input: { businessId: number }): void {
  businessSettingsCache(ctx.deps).forget(input.businessId);
}

/** The context business's contacts settings: the default country of phone numbers (US when none). */
export async function businessContactsSettings(ctx: Ctx): Promise<TBusinessContactsSettings> {
  return (await cachedSettings(ctx)).contacts;
}

/** The context business's signature and away reply (off when never saved). */
export async function businessMessagesSettings(
  ctx: Ctx,
): Promise<Omit<TBusinessMessagesSettings, 'opt_out_msg'>> {
  return (await cachedSettings(ctx)).messages;
}

/** What AI drafts ask of the context's business (ADR 086): its AI switch and its plan. */
export async function businessAiAccess(
  ctx: Ctx,
): Promise<{ agencyId: number; businessId: number; aiEnabled: boolean; planId: number | null }> {
  const { agencyId, businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ ai_enabled: businesses.ai_enabled, plan: businesses.subscription_plan_id })
    .from(businesses)
    .where(and(eq(businesses.id, businessId), eq(businesses.agency_id, agencyId)));
  if (!row) throw notFound();
  return { agencyId, businessId, aiEnabled: row.ai_enabled, planId: row.plan };
}

/**
 * Whether the context's business may send through SendGrid: its agency switched `sendgrid_enabled` on (ADR
 * 090). Read with its settings (cachedSettings): the agency's switch goes through updateBusiness, which
 * forgets them.
 */
export async function businessSendgridEnabled(ctx: Ctx): Promise<boolean> {
  return (await cachedSettings(ctx)).sendgrid;
}

/** Whether the business has the sales-user extension (spec 000 §6: contacts and tags for sales users). */
export async function hasSalesUserExtension(ctx: Ctx, input: { id: number }): Promise<boolean> {
  const [row] = await ctx.db
    .select({ on: businesses.has_sales_user_extension })
    .from(businesses)
    .where(eq(businesses.id, input.id));
  return row?.on ?? false;
}

/** What a user's profile shows of its business (spec 000 §3); null without one. */
export async function businessOfUser(ctx: Ctx, input: { businessId: number | null }) {
  if (input.businessId === null) return null;
  const [business] = await ctx.db
    .select()
    .from(businesses)
    .where(
      scope(
        ctx,
        { agency_id: businesses.agency_id, business_id: businesses.id },
        eq(businesses.id, input.businessId),
      ),
    );
  if (!business) return null;
  return {
    max_departments: Number((business.settings as { max_departments?: number }).max_departments ?? 0),
    business: {
      id: business.id,
      name: business.name,
      free_fee: business.free_fee,
      is_template: business.is_template,
      widget_type: business.widget_type,
      is_on_trial: business.is_on_trial,
      calls: business.calls,
      number_of_calls: business.number_of_calls,
      messages: business.messages,
      number_of_messages: business.number_of_messages,
      number_of_users: business.number_of_users,
      number_of_installs: business.number_of_installs,
      number_of_automations: business.number_of_automations,
      dep_enabled: business.dep_enabled,
      has_sales_user_extension: business.has_sales_user_extension,
      ai_enabled: business.ai_enabled,
    },
  };
}

/** The agency of a business; null when there is no such business (the users module's port, ADR 054). */
export async function agencyOfBusiness(ctx: Ctx, input: { businessId: number }): Promise<number | null> {
  const [row] = await ctx.db
    .select({ agency_id: businesses.agency_id })
    .from(businesses)
    .where(eq(businesses.id, input.businessId));
  return row?.agency_id ?? null;
}

/**
 * Who the business's automated e-mails come from and where their answers go (ADR 071): its name, and its
 * owner's e-mail (else its first BusinessAdmin's), else the first of its notification e-mails; null when
 * it has none of them.
 */
export async function businessMailIdentity(ctx: Ctx): Promise<{ name: string; replyTo: string | null }> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ name: businesses.name, ownerId: businesses.owner_id, settings: businesses.settings })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  const admin = await businessAdminOf(ctx, { businessId, ownerId: row?.ownerId ?? null });
  const listed = (row?.settings as { notifications?: { notification_emails?: unknown } } | undefined)
    ?.notifications?.notification_emails;
  const first = Array.isArray(listed) && typeof listed[0] === 'string' ? listed[0] : null;
  return { name: row?.name ?? '', replyTo: admin?.active === false ? first : (admin?.email ?? first) };
}

/**
 * The business's notification switches and addresses (its "notification" settings screen; ADR 082): a
 * switch never saved is absent, and an absent switch counts as on.
 */
export async function businessNotificationSettings(ctx: Ctx): Promise<TBusinessNotificationSettings> {
  return (await cachedSettings(ctx)).notifications;
}

function notificationSettingsOf(settings: unknown): TBusinessNotificationSettings {
  const parsed = ZBusinessNotificationSettings.safeParse(
    (settings as { notifications?: unknown } | null | undefined)?.notifications ?? {},
  );
  return parsed.success ? parsed.data : {};
}

/** The business's IANA time zone (its settings' `timezone`), UTC when it set none. */
export async function businessTimeZone(ctx: Ctx): Promise<string> {
  const { businessId } = businessOf(ctx);
  const [row] = await ctx.db
    .select({ settings: businesses.settings })
    .from(businesses)
    .where(eq(businesses.id, businessId));
  const tz = (row?.settings as { timezone?: unknown } | undefined)?.timezone;
  return typeof tz === 'string' && tz ? tz : 'UTC';
}

/**
 * What a plan gives a business (ADR 076; spec §3 plan feature keys): its caps and switches. Called by the
 * subscriptions module when the business subscribes, changes plan or renews (a renewal sets the caps
 * again, which ends the packages bought in the period before). `trial`: the red Trial tag.
 */
export async function applyBusinessPlan(
  ctx: Ctx,
  input: {
    businessId: number;
    planId: number | null;
    trial: boolean;
    features: {
      Users: number;
      Installs: number;
      Automations: number;
      Messages: number;
      Calls: number;
      Department: boolean;
      AiIntegration: boolean;
      RemoveBranding: boolean;
      Zapier: boolean;
    } | null;
  },
) {
  const f = input.features;
  await ctx.db
    .update(businesses)
    .set({
      is_on_trial: input.trial,
      ...(f
        ? {
            subscription_plan_id: input.planId,
            number_of_users: f.Users,
            number_of_installs: f.Installs,
            number_of_automations: f.Automations,
            messages: f.Messages,
            calls: f.Calls,
            dep_enabled: f.Department,
            ai_enabled: f.AiIntegration,
            settings: sql`${businesses.settings} || ${JSON.stringify({ remove_branding: f.RemoveBranding, zapier: f.Zapier })}::jsonb`,
          }
        : {}),
      updated_at: new Date(),
    })
    .where(eq(businesses.id, input.businessId));
}

/**
 * Adds a package's credits to a business (ADR 076): messages or calls to the monthly cap (a cap of 0 is
 * no cap and stays so), installs to what it may have.
 */
export async function addBusinessCredits(
  ctx: Ctx,
  input: { businessId: number; kind: 'messages' | 'calls' | 'installs'; quantity: number },
) {
  const q = input.quantity;
  const set =
    input.kind === 'messages'
      ? { messages: sql`case when ${businesses.messages} = 0 then 0 else ${businesses.messages} + ${q} end` }
      : input.kind === 'calls'
        ? { calls: sql`case when ${businesses.calls} = 0 then 0 else ${businesses.calls} + ${q} end` }
        : { number_of_installs: sql`${businesses.number_of_installs} + ${q}` };
  const rows = await ctx.db
    .update(businesses)
    .set({ ...set, updated_at: new Date() })
    .where(eq(businesses.id, input.businessId))
    .returning({ id: businesses.id });
  if (rows.length === 0) throw notFound();
}

/** A business's name, its agency and its owner's id, for billing (null without it). */
export async function businessBillingIdentity(ctx: Ctx, input: { businessId: number }) {
  const [row] = await ctx.db
    .select({ name: businesses.name, agency_id: businesses.agency_id, owner_id: businesses.owner_id })
    .from(businesses)
    .where(eq(businesses.id, input.businessId));
  return row ?? null;
}

// ---------------------------------------------------------------- the business's own carrier account (ADR 093)

/** A business's own carrier account as stored (the token sealed), or null: it uses its agency's. */
export type BusinessCarrierConfig = { accountSid: string; authToken: string; sandbox?: boolean };

/** Which of these businesses have their own carrier account (one query). */
export async function businessesWithOwnCarrier(
  deps: Pick<Deps, 'db'>,
  input: { ids: number[] },
): Promise<Set<number>> {
  if (!input.ids.length) return new Set();
  const rows = await deps.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(
      and(
        inArray(businesses.id, input.ids),
        sql`${businesses.twilio_config}->>'accountSid' is not null`,
        sql`${businesses.twilio_config}->>'authToken' is not null`,
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** The business's own carrier account as stored (token sealed); null when it uses the agency's. */
export async function businessCarrierConfig(
  deps: Pick<Deps, 'db'>,
  input: { businessId: number },
): Promise<BusinessCarrierConfig | null> {
  const [row] = await deps.db
    .select({ cfg: businesses.twilio_config })
    .from(businesses)
    .where(eq(businesses.id, input.businessId))
    .limit(1);
  const cfg = row?.cfg;
  return cfg?.accountSid && cfg.authToken ? cfg : null;
}

/** The business whose own carrier account this is (a webhook finds its tenant by AccountSid), or null. */
export async function businessByCarrierAccount(
  deps: Pick<Deps, 'db'>,
  accountSid: string,
): Promise<{ agencyId: number; businessId: number; cfg: BusinessCarrierConfig } | null> {
  const [row] = await deps.db
    .select({ id: businesses.id, agency_id: businesses.agency_id, cfg: businesses.twilio_config })
    .from(businesses)
    .where(sql`${businesses.twilio_config}->>'accountSid' = ${accountSid}`)
    .orderBy(asc(businesses.id))
    .limit(1);
  if (!row?.cfg?.accountSid || !row.cfg.authToken) return null;
  return { agencyId: row.agency_id, businessId: row.id, cfg: row.cfg };
}

/** The caller's business by id, inside the caller's tenant (another agency's business: 404). */
export async function businessInTenant(
  ctx: Ctx,
  input: { id: number },
): Promise<{ id: number; name: string }> {
  const [row] = await ctx.db
    .select({ id: businesses.id, name: businesses.name })
    .from(businesses)
    .where(scope(ctx, { agency_id: businesses.agency_id }, eq(businesses.id, input.id)));
  if (!row) throw notFound();
  return row;
}

/**
 * Stores the business's own carrier account (already checked with the carrier, the token sealed), or
 * null: back to the agency's. Answers the business as the API shows it.
 */
export async function setBusinessCarrierConfig(
  ctx: Ctx,
  input: { id: number; config: BusinessCarrierConfig | null },
) {
  const [row] = await ctx.db
    .update(businesses)
    .set({ twilio_config: input.config, updated_at: new Date() })
    .where(scope(ctx, { agency_id: businesses.agency_id }, eq(businesses.id, input.id)))
    .returning({ id: businesses.id });
  if (!row) throw notFound();
  return loadBusiness(ctx, { id: row.id });
}
