// The installs module's public functions: a business's widgets, their settings (spec 000 §3 "Install",
// defaults of §9), their lists (active, archived, deleted) and the business's install limit. The only code
// that writes the installs table; the telephony module reads an install's call settings through
// `installForCalls`, the widget tree finds an install by its key through `installByKey`.
import crypto from 'node:crypto';
import { can, type TSubject } from '@stn/contracts/capabilities';
import type { TListQuery } from '@stn/contracts/http';
import {
  defaultInstallSettings,
  INSTALL_IMAGE_MAX_BYTES,
  type TCanCreateInstall,
  type TInstall,
  type TInstallCreate,
  type TInstallListQuery,
  type TInstallPick,
  type TInstallSettings,
  type TInstallSettingsPatch,
  type TInstallStatus,
  type TInstallTwilioStatus,
  type TInstallUpdate,
  ZInstallSettings,
} from '@stn/contracts/installs';
import type { TSupportInstall } from '@stn/contracts/support';
import type { TUserSummary } from '@stn/contracts/users';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import { sharedCache } from '../../platform/cache.ts';
import { anyOf } from '../../platform/db/any-of.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import type { Deps } from '../../platform/deps.ts';
import { putNamedImage, removeNamedImage } from '../../platform/files.ts';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { decodeImage, IMAGE_EXTS } from '../../platform/storage.ts';
import {
  acrossTenants,
  auditActorId,
  auditClient,
  businessOf,
  type Ctx,
  found,
  inTransaction,
  scope,
  scopedPrepared,
} from '../../platform/tenancy/context.ts';
import type { WidgetInstall } from '../../platform/widget/tree.ts';
import { agencyHasTelephony, agencySiteAddress } from '../agencies/service.ts';
import { audit } from '../audit/service.ts';
import { businessLetsIn, businessLimits, businessNameMatches, businessNames } from '../businesses/service.ts';
import { businessDepartmentIds, businessUserSummaries } from '../users/service.ts';
import { countedInstalls, findInstall, type InstallRow, installCols, installRows } from './queries.ts';
import { installs } from './tables.ts';

// ---------------------------------------------------------------------------------------------------
// Settings: stored settings deep-merged onto the defaults, validated as a whole.

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `patch` deep-merged onto `base`: objects merge key by key at every depth, anything else (a list, a
 * value, null) replaces; an undefined key changes nothing. Neither argument is modified.
 */
export function mergeSettings<T>(base: T, patch: unknown): T {
  if (!isPlainObject(base) || !isPlainObject(patch)) return (patch === undefined ? base : patch) as T;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    out[key] = isPlainObject(value) && isPlainObject(out[key]) ? mergeSettings(out[key], value) : value;
  }
  return out as T;
}

/**
 * The settings parsed lately, by their stored JSON: a callback reads its install's settings several times
 * (the widget's request, the call's checks), and each parse validates every staff phone (libphonenumber)
 * with the whole schema. The stored JSON is the key, so a changed install is parsed anew. Every reader gets
 * the same object, frozen all the way down: a reader that wants other settings makes new ones
 * (mergeSettings), and one that tried to change these would fail at once instead of changing another's.
 */
const parsedSettings = new Map<string, TInstallSettings>();
const PARSED_SETTINGS_MAX = 500;
/**
 * The same by the stored object itself when it is frozen (it cannot have changed): the installs' cache
 * (ADR 121) keeps a row's stored settings frozen and is asked again and again with the same object, whose
 * JSON need not be written each time.
 */
const parsedOf = new WeakMap<object, TInstallSettings>();

/** An install's settings as every reader sees them: the spec's defaults with the stored ones on top. */
export function effectiveSettings(stored: unknown): TInstallSettings {
  const frozen = stored !== null && typeof stored === 'object' && Object.isFrozen(stored);
  const held = frozen ? parsedOf.get(stored) : undefined;
  if (held) return held;
  const key = JSON.stringify(stored ?? {});
  let parsed = parsedSettings.get(key);
  if (!parsed) {
    parsed = deepFreeze(parseSettings(stored));
    if (parsedSettings.size >= PARSED_SETTINGS_MAX) parsedSettings.clear();
    parsedSettings.set(key, parsed);
  }
  if (frozen) parsedOf.set(stored, parsed);
  return parsed;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

function parseSettings(stored: unknown): TInstallSettings {
  const merged = mergeSettings(defaultInstallSettings(), stored ?? {});
  const parsed = ZInstallSettings.safeParse(merged);
  // A stored value that no longer validates (an older shape) falls back to its default, key by key.
  if (parsed.success) return parsed.data;
  const defaults = defaultInstallSettings() as Record<string, unknown>;
  const out = { ...(merged as Record<string, unknown>) };
  for (const issue of parsed.error.issues) {
    const key = issue.path[0];
    if (typeof key === 'string') out[key] = defaults[key];
  }
  return ZInstallSettings.safeParse(out).data ?? defaultInstallSettings();
}

/** The merged settings, or a 422 naming the first wrong field (`settings.<path>`). */
function validSettings(base: TInstallSettings, patch: TInstallSettingsPatch | undefined): TInstallSettings {
  const parsed = ZInstallSettings.safeParse(mergeSettings(base, patch ?? {}));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw invalid(['settings', ...(issue?.path ?? [])].join('.'), issue?.message ?? 'validation.invalid');
}

/** Agents and departments named by a change must be this business's. */
async function assertOwnAgents(ctx: Ctx, businessId: number, patch: TInstallSettingsPatch | undefined) {
  if (!patch) return;
  const agents = patch.phoneAgents ?? [];
  const userIds = [...new Set(agents.flatMap((a) => (a?.user_id ? [a.user_id] : [])))];
  if (userIds.length) {
    const own = new Set((await businessUserSummaries(ctx, { businessId, ids: userIds })).map((u) => u.id));
    const wrong = agents.findIndex((a) => a?.user_id && !own.has(a.user_id));
    if (wrong >= 0) throw invalid(`settings.phoneAgents.${wrong}.user_id`, 'installs.agent_invalid');
  }
  const sms = [...new Set(patch.smsAgents ?? [])];
  if (sms.length && (await businessUserSummaries(ctx, { businessId, ids: sms })).length !== sms.length)
    throw invalid('settings.smsAgents', 'installs.agent_invalid');
  const deps = [...new Set(patch.departments ?? [])];
  if (deps.length && (await businessDepartmentIds(ctx, { businessId, ids: deps })).length !== deps.length)
    throw invalid('settings.departments', 'installs.department_invalid');
}

/**
 * A change that switches the lead form on or names one must name a live lead form of the business (asked of
 * the leadforms module through its port, ADR 054): else a 422 on `settings.lead_form_id`.
 */
async function assertLeadForm(
  ctx: Ctx,
  settings: TInstallSettings,
  patch: TInstallSettingsPatch | undefined,
) {
  if (!patch || (patch.is_enable_lead_form === undefined && patch.lead_form_id === undefined)) return;
  if (!settings.is_enable_lead_form || settings.lead_form_id === null) return;
  if (!(await ctx.deps.ports.leadForms.isLive(ctx, { id: settings.lead_form_id })))
    throw invalid('settings.lead_form_id', 'installs.lead_form_invalid');
}

// ---------------------------------------------------------------------------------------------------
// What other modules use.

const installOfKey = prepared((db) =>
  db
    .select()
    .from(installs)
    .where(and(eq(installs.key, slot('key')), eq(installs.status, 'active'), eq(installs.active, true)))
    .limit(1),
);

/**
 * The active install with this key, switched on, with its stored settings; else null (the widget tree:
 * 401). The stored settings of an install made here are complete (the defaults merged in on create);
 * call-side readers use `installForCalls`, which merges the defaults whatever is stored.
 */
export async function installByKey(deps: Deps, key: string): Promise<WidgetInstall | null> {
  return installsByKey(deps).get(key, async () => {
    const [row] = await installOfKey(deps.db, { key });
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      agencyId: row.agency_id,
      businessId: row.business_id,
      // Frozen: every request shares it while it is kept.
      settings: deepFreeze(row.settings),
      updatedAt: row.updated_at,
    };
  });
}

// What the busy paths read of an install (ADR 121): by its key at every widget request, by its id for a
// call, a text, an away reply or a staff notice. Kept INSTALLS_TTL_MS in each process (platform/cache.ts);
// every change this module makes forgets them, in every process. Callers only read what they get.
const INSTALLS_TTL_MS = 5_000;
const installsByKey = (deps: Deps) =>
  sharedCache<WidgetInstall | null>(deps, 'installs.key', INSTALLS_TTL_MS);
const installsById = (deps: Deps) =>
  sharedCache<InstallForCalls | null>(deps, 'installs.id', INSTALLS_TTL_MS);
/** An install's entry by id is the business's own: the same id asked by another tenant is another key. */
const idKey = (agencyId: number, businessId: number, id: number) => `${agencyId}.${businessId}.${id}`;

/** A change of the install was committed: its copies are forgotten here and in every process. */
function forgetInstall(ctx: Ctx, row: { id: number; key: string; agency_id: number; business_id: number }) {
  installsByKey(ctx.deps).forget(row.key);
  installsById(ctx.deps).forget(idKey(row.agency_id, row.business_id, row.id));
}

/**
 * The install a widget request found by its key (installByKey: active and switched on, read by this very
 * request) as installForCalls answers it: a callback it asks for needs no second read of the row.
 */
export function widgetInstallForCalls(install: WidgetInstall): InstallForCalls {
  return {
    id: install.id,
    name: install.name,
    agencyId: install.agencyId,
    businessId: install.businessId,
    status: 'active',
    active: true,
    settings: effectiveSettings(install.settings),
  };
}

/** The name of the install the demo data gives Bright Dental (seed.ts): the widget demo page's default. */
export const DEMO_INSTALL_NAME = 'Bright Dental website';

/**
 * The install the widget demo page shows: the active, switched-on install with this key, or without a key
 * the demo data's install (the oldest of that name); null when there is none. Only what an embed code
 * already makes public: the key, the name and the website.
 */
export async function demoPageInstall(
  deps: Deps,
  key: string | null,
): Promise<{
  id: number;
  key: string;
  name: string;
  website: string;
  agencyId: number;
  businessId: number;
} | null> {
  const live = and(eq(installs.status, 'active'), eq(installs.active, true));
  const [row] = await deps.db
    .select({
      id: installs.id,
      key: installs.key,
      name: installs.name,
      website: installs.website,
      agencyId: installs.agency_id,
      businessId: installs.business_id,
    })
    .from(installs)
    .where(and(live, key === null ? eq(installs.name, DEMO_INSTALL_NAME) : eq(installs.key, key)))
    .orderBy(asc(installs.id))
    .limit(1);
  return row ?? null;
}

/** The install's logo and widget icon (paths under /uploads), for the widget's config. */
export async function installImages(
  ctx: Ctx,
  input: { id: number },
): Promise<{ logo: string | null; widget_icon: string | null }> {
  const [row] = await ctx.db
    .select({ logo: installs.logo, widget_icon: installs.widget_icon })
    .from(installs)
    .where(scope(ctx, installCols, eq(installs.id, input.id)));
  return { logo: row?.logo ?? null, widget_icon: row?.widget_icon ?? null };
}

/** A fresh install key: long and random, as it is the only thing a widget request presents. */
export function newInstallKey(): string {
  return crypto.randomBytes(18).toString('base64url');
}

export type InstallForCalls = {
  id: number;
  name: string;
  agencyId: number;
  businessId: number;
  status: TInstallStatus;
  active: boolean;
  settings: TInstallSettings;
};

const installOfId = scopedPrepared(installCols, (db, tenant) =>
  db
    .select()
    .from(installs)
    .where(and(tenant, eq(installs.id, slot('id'))))
    .limit(1),
);

/**
 * An install of the context's tenant as the call side needs it (whatever its list or switch: the caller
 * decides what an archived or switched-off install may still do), or null when it is not this tenant's.
 */
export async function installForCalls(ctx: Ctx, installId: number): Promise<InstallForCalls | null> {
  const read = async () => {
    const [row] = await installOfId(ctx, { id: installId });
    if (!row) return null;
    return {
      id: row.id,
      name: row.name,
      agencyId: row.agency_id,
      businessId: row.business_id,
      status: row.status,
      active: row.active,
      settings: effectiveSettings(row.settings),
    };
  };
  // Kept for a business's own contexts (the call side's, in a transaction or not: only this module writes
  // installs, and never reads this after a change); an agency's or the platform's reads it.
  const { tenant } = ctx;
  if (tenant.level !== 'business') return read();
  return installsById(ctx.deps).get(idKey(tenant.agencyId, tenant.businessId, installId), read);
}

/**
 * The name of the install `installId` (a column of the caller's row, written qualified), '' when it is not
 * the context business's: a correlated subquery for another module's list that shows it (the calls and
 * voicemail lists), so a page stays one query, not one per row.
 */
export function installNameSql(ctx: Ctx, installId: SQL): SQL<string> {
  const { agencyId, businessId } = businessOf(ctx);
  return sql<string>`coalesce((select i.name from installs i where i.id = ${installId}
    and i.agency_id = ${agencyId} and i.business_id = ${businessId}), '')`;
}

/**
 * The tenant's installs (not deleted) whose widget shows a lead form (`is_enable_lead_form` with a
 * `lead_form_id`), with that form's id: the lead forms list shows where each form is used.
 */
export async function leadFormInstalls(
  ctx: Ctx,
): Promise<{ id: number; name: string; lead_form_id: number }[]> {
  const rows = await ctx.db
    .select({
      id: installs.id,
      name: installs.name,
      lead_form_id: sql<number | null>`(${installs.settings} ->> 'lead_form_id')::int`,
    })
    .from(installs)
    .where(
      scope(
        ctx,
        installCols,
        ne(installs.status, 'deleted'),
        sql`${installs.settings} -> 'is_enable_lead_form' = 'true'::jsonb`,
        sql`jsonb_typeof(${installs.settings} -> 'lead_form_id') = 'number'`,
      ),
    )
    .orderBy(asc(installs.name), asc(installs.id));
  return rows.flatMap((r) =>
    r.lead_form_id === null ? [] : [{ ...r, lead_form_id: Number(r.lead_form_id) }],
  );
}

/** id and name of the tenant's installs that are not deleted (lists and reports), by name. */
export async function installsOfBusiness(
  ctx: Ctx,
): Promise<{ id: number; name: string; status: TInstallStatus }[]> {
  return ctx.db
    .select({ id: installs.id, name: installs.name, status: installs.status })
    .from(installs)
    .where(scope(ctx, installCols, ne(installs.status, 'deleted')))
    .orderBy(asc(installs.name), asc(installs.id));
}

/** An install as the platform's support chat picker shows it, with what the support module checks. */
export type SupportInstallRow = TSupportInstall & { key: string; agency_id: number; business_live: boolean };

const supportCols = {
  id: installs.id,
  name: installs.name,
  website: installs.website,
  business_id: installs.business_id,
  status: installs.status,
  active: installs.active,
  key: installs.key,
  agency_id: installs.agency_id,
  // The business is neither switched off, archived nor deleted.
  business_live: businessLetsIn(installs.business_id),
};

async function withBusinessNames(ctx: Ctx, rows: Omit<SupportInstallRow, 'business_name'>[]) {
  const names = await businessNames(ctx, { ids: [...new Set(rows.map((r) => r.business_id))] });
  return rows.map((r) => ({ ...r, business_name: names.get(r.business_id) ?? '' }));
}

/**
 * Installs of these ids, whatever their agency or list: the platform's support chat names installs of the
 * main agency's businesses and shows them to every agency (the support module decides who may ask).
 */
export async function supportInstalls(ctx: Ctx, input: { ids: number[] }): Promise<SupportInstallRow[]> {
  if (input.ids.length === 0) return [];
  const across = acrossTenants(ctx, 'the platform’s support chat installs are shown to every agency');
  const rows = await across.db.select(supportCols).from(installs).where(anyOf(installs.id, input.ids));
  return withBusinessNames(across, rows);
}

/**
 * The support chat's choices: active installs of the agency's live businesses, searched by install name,
 * website or business name, by install name, 10 per page.
 */
export async function supportInstallChoices(ctx: Ctx, input: TListQuery & { agencyId: number }) {
  const keyword = input.keyword ? likePattern(input.keyword) : undefined;
  const where = and(
    eq(installs.agency_id, input.agencyId),
    eq(installs.status, 'active'),
    businessLetsIn(installs.business_id),
    keyword
      ? or(
          ilike(installs.name, keyword),
          ilike(installs.website, keyword),
          businessNameMatches(installs.business_id, keyword),
        )
      : undefined,
  );
  const { limit, offset } = pageOf(input);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(supportCols)
      .from(installs)
      .where(where)
      .orderBy(asc(installs.name), asc(installs.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: count() }).from(installs).where(where),
  ]);
  const data = (await withBusinessNames(ctx, rows)).map(
    ({ key: _key, agency_id: _agency, business_live: _live, ...pick }) => pick,
  );
  return listEnvelope(data, total?.n ?? 0, input);
}

/** The carrier numbers of these installs: telephony's, through the numbers port (ADR 054). */
const installNumbers = (ctx: Ctx, installIds: number[]) =>
  ctx.deps.ports.numbers.ofInstalls(ctx, { installIds });

/** Each install row with its carrier number (E.164), or null. */
async function withNumbers(ctx: Ctx, rows: InstallRow[]): Promise<[InstallRow, string | null][]> {
  const numbers = await installNumbers(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((r) => [r, numbers.get(r.id)?.phone_number ?? null]);
}

// ---------------------------------------------------------------------------------------------------
// The installs screens.

async function present(ctx: Ctx, rows: InstallRow[]): Promise<TInstall[]> {
  return (await withNumbers(ctx, rows)).map(([r, number]) => ({
    id: r.id,
    name: r.name,
    website: r.website,
    key: r.key,
    status: r.status,
    active: r.active,
    settings: effectiveSettings(r.settings),
    number,
    widget_icon: r.widget_icon,
    logo: r.logo,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

async function presentOne(ctx: Ctx, row: InstallRow): Promise<TInstall> {
  const [out] = await present(ctx, [row]);
  if (!out) throw notFound();
  return out;
}

export async function listInstalls(ctx: Ctx, q: TInstallListQuery) {
  businessOf(ctx);
  const keyword = q.keyword ? likePattern(q.keyword) : undefined;
  const where = scope(
    ctx,
    installCols,
    eq(installs.status, q.status),
    keyword ? or(ilike(installs.name, keyword), ilike(installs.website, keyword)) : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(installs).where(where).orderBy(desc(installs.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(installs).where(where),
  ]);
  return listEnvelope(await present(ctx, rows), total?.n ?? 0, q);
}

/** The names of these installs of the context's tenant (a business's, or an agency's businesses'), by id. */
export async function installNames(ctx: Ctx, input: { ids: number[] }): Promise<Map<number, string>> {
  if (input.ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: installs.id, name: installs.name })
    .from(installs)
    .where(scope(ctx, installCols, anyOf(installs.id, input.ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Every active install (switched on or off), for pickers: oldest first, so the first is the default. */
export async function allInstalls(ctx: Ctx): Promise<TInstallPick[]> {
  businessOf(ctx);
  const rows = await installRows(ctx, eq(installs.status, 'active'));
  return (await withNumbers(ctx, rows)).map(([r, number]) => ({
    id: r.id,
    name: r.name,
    website: r.website,
    active: r.active,
    number,
    key: r.key,
    ...(({ hours, timezone }) => ({ hours, timezone }))(effectiveSettings(r.settings)),
  }));
}

export async function getInstall(ctx: Ctx, input: { id: number }): Promise<TInstall> {
  businessOf(ctx);
  return presentOne(ctx, await findInstall(ctx, input.id));
}

/** The business's install limit: active and archived installs hold a place, deleted ones do not. */
export async function canCreateInstall(ctx: Ctx): Promise<TCanCreateInstall> {
  const { businessId } = businessOf(ctx);
  const limits = await businessLimits(ctx, { id: businessId });
  const total = Math.max(0, limits?.number_of_installs ?? 0);
  const used = await countedInstalls(ctx, { businessId });
  const available = Math.max(0, total - used);
  return {
    can_create: available > 0,
    total_installs: total,
    used_installs: used,
    available_installs: available,
  };
}

const noInstalls = () =>
  new AppError('VALIDATION', 'installs.no_installs', undefined, {}, 'installs.no_installs');

/** Locks the business's row and refuses when one more install would pass its limit. */
async function assertRoomForOne(tx: Ctx, businessId: number) {
  const limits = await businessLimits(tx, { id: businessId, lock: true });
  if (!limits) throw notFound();
  if ((await countedInstalls(tx, { businessId })) >= limits.number_of_installs) throw noInstalls();
}

/** A new active install: the spec's defaults with the given settings on top, and a new random key. */
export async function createInstall(ctx: Ctx, input: TInstallCreate): Promise<TInstall> {
  const { agencyId, businessId } = businessOf(ctx);
  const settings = validSettings(defaultInstallSettings(), input.settings);
  const row = await inTransaction(ctx, async (tx) => {
    await assertRoomForOne(tx, businessId);
    await assertOwnAgents(tx, businessId, input.settings);
    await assertLeadForm(tx, settings, input.settings);
    const [created] = await tx.db
      .insert(installs)
      .values({
        agency_id: agencyId,
        business_id: businessId,
        key: newInstallKey(),
        name: input.name,
        website: input.website,
        settings,
      })
      .returning();
    return found(created);
  });
  return presentOne(ctx, row);
}

/** Edits name, website and settings (deep-merged onto the current ones, then validated as a whole). */
export async function updateInstall(ctx: Ctx, input: TInstallUpdate & { id: number }): Promise<TInstall> {
  const { businessId } = businessOf(ctx);
  const row = await inTransaction(ctx, async (tx) => {
    const current = await findInstall(tx, input.id, true);
    const settings = validSettings(effectiveSettings(current.settings), input.settings);
    await assertOwnAgents(tx, businessId, input.settings);
    await assertLeadForm(tx, settings, input.settings);
    const [updated] = await tx.db
      .update(installs)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.website !== undefined ? { website: input.website } : {}),
        settings,
        updated_at: new Date(),
      })
      .where(eq(installs.id, current.id))
      .returning();
    return found(updated);
  });
  ctx.afterCommit(() => forgetInstall(ctx, row));
  return presentOne(ctx, row);
}

const statusInvalid = () => invalid('status', 'installs.status_invalid');

/**
 * Moves an install between the lists of spec 000 §4: archive (active → archived), restore (archived or
 * deleted → active; a deleted one needs a free place again), delete (active or archived → deleted; a
 * deleted one is not found again: there is nothing more to remove).
 */
export async function moveInstall(
  ctx: Ctx,
  input: { id: number; to: 'archived' | 'active' | 'deleted' },
): Promise<TInstall> {
  const { businessId } = businessOf(ctx);
  const row = await inTransaction(ctx, async (tx) => {
    const current = await findInstall(tx, input.id, true);
    const now = new Date();
    let changes: Partial<InstallRow>;
    if (input.to === 'archived') {
      if (current.status !== 'active') throw statusInvalid();
      changes = { status: 'archived', archived_at: now };
    } else if (input.to === 'active') {
      if (current.status === 'active') throw statusInvalid();
      if (current.status === 'deleted') await assertRoomForOne(tx, businessId);
      changes = { status: 'active', archived_at: null, deleted_at: null };
    } else {
      if (current.status === 'deleted') throw notFound();
      changes = { status: 'deleted', deleted_at: now };
    }
    const [updated] = await tx.db
      .update(installs)
      .set({ ...changes, updated_at: now })
      .where(eq(installs.id, current.id))
      .returning();
    // Who took a widget off a website, or put it back, is worth keeping.
    if (input.to !== 'archived')
      await audit(tx, {
        action: input.to === 'deleted' ? 'install.delete' : 'install.restore',
        actorId: auditActorId(tx),
        agencyId: current.agency_id,
        businessId: current.business_id,
        data: { install_id: current.id, name: current.name, from: current.status },
        ...auditClient(tx),
      });
    return found(updated);
  });
  ctx.afterCommit(() => forgetInstall(ctx, row));
  return presentOne(ctx, row);
}

/** The switch: an install switched off stays in its list and takes no widget requests. */
export async function toggleInstallActive(ctx: Ctx, input: { id: number; active: boolean }) {
  businessOf(ctx);
  const row = await inTransaction(ctx, async (tx) => {
    const current = await findInstall(tx, input.id, true);
    if (current.status === 'deleted') throw statusInvalid();
    const [updated] = await tx.db
      .update(installs)
      .set({ active: input.active, updated_at: new Date() })
      .where(eq(installs.id, current.id))
      .returning();
    return found(updated);
  });
  ctx.afterCommit(() => forgetInstall(ctx, row));
  return presentOne(ctx, row);
}

/**
 * The script tag a website pastes: the widget loader with the install's key, on the agency's own
 * white-label host (its domain or subdomain): the business's visitors never see the platform's name.
 */
export async function embedCode(ctx: Ctx, input: { id: number }): Promise<{ code: string; key: string }> {
  const { agencyId } = businessOf(ctx);
  const row = await findInstall(ctx, input.id);
  const base = await agencySiteAddress(ctx, { id: agencyId });
  return { code: `<script src="${base}/widget.js" data-key="${row.key}" async></script>`, key: row.key };
}

// ---------------------------------------------------------------------------------------------------
// Images: the widget's icon and the logo, uploaded as data URLs like the agency images.

export type InstallImage = 'widgetIcon' | 'logo';
const IMAGE_COLUMN = { widgetIcon: 'widget_icon', logo: 'logo' } as const;

const imageFolder = (id: number) => `installs/${id}`;

export async function uploadInstallImage(
  ctx: Ctx,
  input: { id: number; type: InstallImage; data: string },
): Promise<{ url: string }> {
  businessOf(ctx);
  const row = await findInstall(ctx, input.id);
  const { bytes, ext } = decodeImage(input.data, {
    allowed: IMAGE_EXTS,
    maxBytes: INSTALL_IMAGE_MAX_BYTES,
    invalidKey: 'installs.image_invalid',
    tooLargeKey: 'installs.image_too_large',
  });
  const url = await putNamedImage(ctx.deps.storage, imageFolder(row.id), input.type, { bytes, ext });
  await ctx.db
    .update(installs)
    .set({ [IMAGE_COLUMN[input.type]]: url, updated_at: new Date() })
    .where(eq(installs.id, row.id));
  return { url };
}

export async function deleteInstallImage(
  ctx: Ctx,
  input: { id: number; type: InstallImage },
): Promise<{ url: null }> {
  businessOf(ctx);
  const row = await findInstall(ctx, input.id);
  await removeNamedImage(ctx.deps.storage, imageFolder(row.id), input.type);
  await ctx.db
    .update(installs)
    .set({ [IMAGE_COLUMN[input.type]]: null, updated_at: new Date() })
    .where(eq(installs.id, row.id));
  return { url: null };
}

// ---------------------------------------------------------------------------------------------------
// Agents and telephony status of one install.

/** The users the install's texts go to (settings.smsAgents), as summaries. */
export async function installSmsAgents(ctx: Ctx, input: { id: number }): Promise<TUserSummary[]> {
  const { businessId } = businessOf(ctx);
  const row = await findInstall(ctx, input.id);
  return businessUserSummaries(ctx, { businessId, ids: effectiveSettings(row.settings).smsAgents });
}

/** Whether the install can call and text: the agency's telephony set-up and the install's number. */
export async function installTwilioStatus(ctx: Ctx, input: { id: number }): Promise<TInstallTwilioStatus> {
  businessOf(ctx);
  const row = await findInstall(ctx, input.id);
  const settings = effectiveSettings(row.settings);
  const number = (await installNumbers(ctx, [row.id])).get(row.id) ?? null;
  const configured = await agencyHasTelephony(ctx, { id: row.agency_id });
  return {
    configured,
    number: number?.phone_number ?? null,
    caller_id: settings.caller_id,
    caller_id_verified: settings.caller_id_verified,
    voice: configured && Boolean(number?.voice),
    sms: configured && Boolean(number?.sms),
  };
}

// ---------------------------------------------------------------------------------------------------
// The install wizard of spec 000 §4.

/**
 * The profile's `open_install_wizard` for a user (ADR 027): only for a business user who may use the
 * installs screens; the id of the business's oldest live (active or archived) install whose wizard is
 * unfinished (settings.wizard_step set); else true when the business has no live install at all; else false.
 */
export async function openInstallWizard(
  ctx: Ctx,
  input: { businessId: number | null; subject: TSubject },
): Promise<boolean | number> {
  if (input.businessId === null || !can(input.subject, 'installs.use')) return false;
  const rows = await ctx.db
    .select({ id: installs.id, settings: installs.settings })
    .from(installs)
    .where(and(eq(installs.business_id, input.businessId), inArray(installs.status, ['active', 'archived'])))
    .orderBy(asc(installs.id));
  if (rows.length === 0) return true;
  const unfinished = rows.find((r) => (r.settings as Partial<TInstallSettings>).wizard_step != null);
  return unfinished ? unfinished.id : false;
}

/**
 * The SMS agents (settings.smsAgents) of every install of the context's business, deleted ones included, as
 * one JSON object by install id: a subquery for another module's statement (the inbox's viewers are read
 * with the business's users in one round trip; `smsAgentsFrom` reads its value). Read from the stored list
 * itself (validated on every write; the default is none): parsing whole settings each time was a good part
 * of an inbound text's realtime news.
 */
export function smsAgentsSql(ctx: Ctx): SQL<unknown> {
  return smsAgentsOfSql(sql`${businessOf(ctx).businessId}::int`);
}

/** `smsAgentsSql` of the business `business` names (a value, or a prepared statement's `slot`). */
export function smsAgentsOfSql(business: SQL): SQL<unknown> {
  return sql`(select coalesce(json_object_agg(i.id, i.settings -> 'smsAgents'), '{}'::json)
    from installs i where i.business_id = ${business})`;
}

/** What `smsAgentsSql` answered, by install id (an agent that is not a user id is dropped). */
export function smsAgentsFrom(value: unknown): Map<number, number[]> {
  const byInstall = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  return new Map(
    Object.entries(byInstall).map(([id, agents]) => [
      Number(id),
      Array.isArray(agents) ? agents.filter((a): a is number => Number.isInteger(a)) : [],
    ]),
  );
}
