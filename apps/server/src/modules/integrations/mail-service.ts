// The business's own e-mail (issue 25, ADR 090): its SMTP e-mail accounts, its SendGrid integration, and
// the agency's own SMTP account (business_id null). Secrets are sealed and never answered; settings are
// saved only once the SMTP server (verify) or SendGrid (the key's scopes) accepted them.
import type {
  TEmailAccount,
  TEmailAccountInput,
  TMailIntegration,
  TMailIntegrationInput,
  TMailIntegrationType,
} from '@stn/contracts/own-mail';
import { ZEmailAccountInput, ZMailIntegrationInput } from '@stn/contracts/own-mail';
import { and, asc, desc, eq, isNull, ne } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { sharedCache } from '../../platform/cache.ts';
import { prepared, slot } from '../../platform/db/prepared.ts';
import { AppError, forbidden, notFound } from '../../platform/http/errors.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { businessOf } from '../../platform/tenancy/context.ts';
import { businessSendgridEnabled } from '../businesses/service.ts';
import { MailTransportError, sendgridFor, verifySmtp } from './mail-transport.ts';
import { emailAccounts, userIntegrations } from './tables.ts';

/** Whose mail: a business's, or (businessId null) its agency's own. */
export type MailOwner = { agencyId: number; businessId: number | null };

/** The context's owner: its business, or with `agency` the context's agency itself. */
export function mailOwnerOf(ctx: Ctx, agency = false): MailOwner {
  if (!agency) return businessOf(ctx);
  if (ctx.tenant.level !== 'agency') throw forbidden();
  return { agencyId: ctx.tenant.agencyId, businessId: null };
}

const ownerIs = (cols: { agency_id: PgColumn; business_id: PgColumn }, o: MailOwner) =>
  and(
    eq(cols.agency_id, o.agencyId),
    o.businessId === null ? isNull(cols.business_id) : eq(cols.business_id, o.businessId),
  );

type AccountRow = typeof emailAccounts.$inferSelect;
type IntegrationRow = typeof userIntegrations.$inferSelect;

export function presentAccount(r: AccountRow): TEmailAccount {
  return {
    id: r.id,
    provider: 'smtp',
    name: r.name,
    from_email: r.from_email,
    from_name: r.from_name,
    host: r.host,
    port: r.port,
    security: r.security,
    username: r.username,
    has_password: r.password !== '',
    is_default: r.is_default,
    verified_at: r.verified_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

export function presentIntegration(r: IntegrationRow): TMailIntegration {
  const config = r.config as { from_email?: string; from_name?: string };
  return {
    id: r.id,
    key: 'sendgrid',
    name: r.name,
    from_email: config.from_email ?? '',
    from_name: config.from_name ?? '',
    has_api_key: r.secret !== '',
    active: r.active,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** The check's refusal as the 422 the form shows (nothing saved). */
function refusal(field: string, err: MailTransportError, key: string): AppError {
  const message = err.kind === 'address' ? 'ownMail.smtp_refused_host' : key;
  return new AppError('VALIDATION', message, { [field]: message }, { reason: err.message });
}

// ---------------------------------------------------------------- e-mail accounts

export async function listAccounts(ctx: Ctx, owner: MailOwner): Promise<TEmailAccount[]> {
  const rows = await ctx.db
    .select()
    .from(emailAccounts)
    .where(ownerIs(emailAccounts, owner))
    .orderBy(asc(emailAccounts.id));
  return rows.map(presentAccount);
}

async function accountRow(ctx: Ctx, owner: MailOwner, id: number): Promise<AccountRow> {
  const [row] = await ctx.db
    .select()
    .from(emailAccounts)
    .where(and(ownerIs(emailAccounts, owner), eq(emailAccounts.id, id)));
  if (!row) throw notFound();
  return row;
}

export async function getAccount(ctx: Ctx, input: { owner: MailOwner; id: number }) {
  return presentAccount(await accountRow(ctx, input.owner, input.id));
}

/** sendingAccount's query, built once for a business's accounts and once for an agency's own. */
const sendingAccountQuery = (agencyOwn: boolean) =>
  prepared((db) =>
    db
      .select()
      .from(emailAccounts)
      .where(
        and(
          eq(emailAccounts.agency_id, slot('agency')),
          agencyOwn ? isNull(emailAccounts.business_id) : eq(emailAccounts.business_id, slot('business')),
        ),
      )
      .orderBy(desc(emailAccounts.is_default), asc(emailAccounts.id))
      .limit(1),
  );
const businessSendingAccount = sendingAccountQuery(false);
const agencySendingAccount = sendingAccountQuery(true);

/**
 * Each owner's sending account, kept a few seconds (ADR 119's shared cache, ADR 124): every staff notice
 * and every message of the owner's own mail asks, and accounts seldom change. Every change here forgets
 * the owner's; a change made in SQL is seen within the TTL.
 */
const SENDER_TTL_MS = 5_000;
const senderCache = (deps: Ctx['deps']) => sharedCache<AccountRow | null>(deps, 'mail-sender', SENDER_TTL_MS);
const ownerKey = (o: MailOwner) => `${o.agencyId}:${o.businessId ?? ''}`;

/** Whether the context is the owner itself (only the owner's own reads are kept for it). */
const isOwner = (ctx: Ctx, o: MailOwner) =>
  o.businessId === null
    ? ctx.tenant.level === 'agency' && ctx.tenant.agencyId === o.agencyId
    : ctx.tenant.level === 'business' &&
      ctx.tenant.agencyId === o.agencyId &&
      ctx.tenant.businessId === o.businessId;

/** Forgets the owner's sending account, in every process (after its accounts changed). */
const senderChanged = (ctx: Ctx, owner: MailOwner) => senderCache(ctx.deps).forget(ownerKey(owner));

/** The owner's default account (else its first; the password still sealed); null without one. */
export async function sendingAccount(ctx: Ctx, owner: MailOwner): Promise<AccountRow | null> {
  const read = async () => {
    const [row] =
      owner.businessId === null
        ? await agencySendingAccount(ctx.db, { agency: owner.agencyId })
        : await businessSendingAccount(ctx.db, { agency: owner.agencyId, business: owner.businessId });
    return row ?? null;
  };
  return isOwner(ctx, owner) ? senderCache(ctx.deps).get(ownerKey(owner), read) : read();
}

async function checkSmtp(ctx: Ctx, input: ReturnType<typeof ZEmailAccountInput.parse>, password: string) {
  try {
    await verifySmtp(ctx.deps.config, {
      host: input.host,
      port: input.port,
      security: input.security,
      username: input.username,
      password,
    });
  } catch (err) {
    if (err instanceof MailTransportError) throw refusal('host', err, 'ownMail.smtp_failed');
    throw err;
  }
}

export async function createAccount(ctx: Ctx, input: { owner: MailOwner; account: TEmailAccountInput }) {
  const a = ZEmailAccountInput.parse(input.account);
  await checkSmtp(ctx, a, a.password);
  const existing = await listAccounts(ctx, input.owner);
  const isDefault = a.is_default ?? existing.length === 0;
  const created = await ctx.db.transaction(async (tx) => {
    if (isDefault)
      await tx.update(emailAccounts).set({ is_default: false }).where(ownerIs(emailAccounts, input.owner));
    const [row] = await tx
      .insert(emailAccounts)
      .values({
        agency_id: input.owner.agencyId,
        business_id: input.owner.businessId,
        name: a.name,
        from_email: a.from_email,
        from_name: a.from_name,
        host: a.host,
        port: a.port,
        security: a.security,
        username: a.username,
        password: a.password ? ctx.deps.secrets.seal(a.password) : '',
        is_default: isDefault || existing.length === 0,
        verified_at: new Date(),
      })
      .returning();
    if (!row) throw new Error('email account not inserted');
    return presentAccount(row);
  });
  senderChanged(ctx, input.owner);
  return created;
}

export async function updateAccount(
  ctx: Ctx,
  input: { owner: MailOwner; id: number; account: TEmailAccountInput },
) {
  const row = await accountRow(ctx, input.owner, input.id);
  const a = ZEmailAccountInput.parse(input.account);
  // The stored password goes only where it went before: a new server, user or security asks for it again.
  const moved =
    a.host.toLowerCase() !== row.host.toLowerCase() ||
    a.port !== row.port ||
    a.security !== row.security ||
    a.username !== row.username;
  if (!a.password && row.password && moved)
    throw new AppError('VALIDATION', undefined, { password: 'ownMail.password_again' });
  const password = a.password || (row.password ? ctx.deps.secrets.open(row.password) : '');
  await checkSmtp(ctx, a, password);
  const updated = await ctx.db.transaction(async (tx) => {
    if (a.is_default)
      await tx
        .update(emailAccounts)
        .set({ is_default: false })
        .where(and(ownerIs(emailAccounts, input.owner), ne(emailAccounts.id, row.id)));
    const [saved] = await tx
      .update(emailAccounts)
      .set({
        name: a.name,
        from_email: a.from_email,
        from_name: a.from_name,
        host: a.host,
        port: a.port,
        security: a.security,
        username: a.username,
        ...(a.password ? { password: ctx.deps.secrets.seal(a.password) } : {}),
        // The one default is unset only by making another one the default.
        ...(a.is_default ? { is_default: true } : {}),
        verified_at: new Date(),
        updated_at: new Date(),
      })
      .where(eq(emailAccounts.id, row.id))
      .returning();
    if (!saved) throw notFound();
    return presentAccount(saved);
  });
  senderChanged(ctx, input.owner);
  return updated;
}

export async function deleteAccount(ctx: Ctx, input: { owner: MailOwner; id: number }) {
  const row = await accountRow(ctx, input.owner, input.id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(emailAccounts).where(eq(emailAccounts.id, row.id));
    if (!row.is_default) return;
    // The next oldest becomes the default: the owner's mail keeps going through its own account.
    const [next] = await tx
      .select({ id: emailAccounts.id })
      .from(emailAccounts)
      .where(ownerIs(emailAccounts, input.owner))
      .orderBy(asc(emailAccounts.id))
      .limit(1);
    if (next) await tx.update(emailAccounts).set({ is_default: true }).where(eq(emailAccounts.id, next.id));
  });
  senderChanged(ctx, input.owner);
}

// ---------------------------------------------------------------- SendGrid integrations

export async function listIntegrations(ctx: Ctx, owner: MailOwner): Promise<TMailIntegration[]> {
  const rows = await ctx.db
    .select()
    .from(userIntegrations)
    .where(and(ownerIs(userIntegrations, owner), eq(userIntegrations.key, 'sendgrid')))
    .orderBy(asc(userIntegrations.id));
  return rows.map(presentIntegration);
}

async function integrationRow(ctx: Ctx, owner: MailOwner, id: number): Promise<IntegrationRow> {
  const [row] = await ctx.db
    .select()
    .from(userIntegrations)
    .where(
      and(
        ownerIs(userIntegrations, owner),
        eq(userIntegrations.id, id),
        eq(userIntegrations.key, 'sendgrid'),
      ),
    );
  if (!row) throw notFound();
  return row;
}

export async function getIntegration(ctx: Ctx, input: { owner: MailOwner; id: number }) {
  return presentIntegration(await integrationRow(ctx, input.owner, input.id));
}

/** The owner's active SendGrid integration (the sealed key still sealed); null without one. */
export async function sendingIntegration(ctx: Ctx, owner: MailOwner): Promise<IntegrationRow | null> {
  const [row] = await ctx.db
    .select()
    .from(userIntegrations)
    .where(
      and(
        ownerIs(userIntegrations, owner),
        eq(userIntegrations.key, 'sendgrid'),
        eq(userIntegrations.active, true),
      ),
    )
    .orderBy(asc(userIntegrations.id))
    .limit(1);
  return row ?? null;
}

async function checkSendgridAllowed(ctx: Ctx, owner: MailOwner) {
  if (owner.businessId !== null && !(await businessSendgridEnabled(ctx)))
    throw forbidden('ownMail.sendgrid_disabled');
}

async function checkKey(ctx: Ctx, apiKey: string) {
  try {
    await sendgridFor(ctx.deps.config).checkKey(apiKey);
  } catch (err) {
    if (err instanceof MailTransportError) throw refusal('api_key', err, 'ownMail.sendgrid_failed');
    throw err;
  }
}

export async function createIntegration(
  ctx: Ctx,
  input: { owner: MailOwner; integration: TMailIntegrationInput },
) {
  await checkSendgridAllowed(ctx, input.owner);
  const i = ZMailIntegrationInput.parse(input.integration);
  if (!i.api_key) throw new AppError('VALIDATION', undefined, { api_key: 'ownMail.api_key_required' });
  if (await sendingIntegrationAny(ctx, input.owner))
    throw new AppError('CONFLICT', 'ownMail.sendgrid_exists');
  await checkKey(ctx, i.api_key);
  const [row] = await ctx.db
    .insert(userIntegrations)
    .values({
      agency_id: input.owner.agencyId,
      business_id: input.owner.businessId,
      key: 'sendgrid',
      name: i.name || 'SendGrid',
      config: { from_email: i.from_email, from_name: i.from_name },
      secret: ctx.deps.secrets.seal(i.api_key),
      active: i.active,
    })
    .returning();
  if (!row) throw new Error('integration not inserted');
  return presentIntegration(row);
}

async function sendingIntegrationAny(ctx: Ctx, owner: MailOwner) {
  const [row] = await ctx.db
    .select({ id: userIntegrations.id })
    .from(userIntegrations)
    .where(and(ownerIs(userIntegrations, owner), eq(userIntegrations.key, 'sendgrid')))
    .limit(1);
  return row ?? null;
}

export async function updateIntegration(
  ctx: Ctx,
  input: { owner: MailOwner; id: number; integration: TMailIntegrationInput },
) {
  const row = await integrationRow(ctx, input.owner, input.id);
  await checkSendgridAllowed(ctx, input.owner);
  const i = ZMailIntegrationInput.parse(input.integration);
  if (i.api_key) await checkKey(ctx, i.api_key);
  const [saved] = await ctx.db
    .update(userIntegrations)
    .set({
      name: i.name || row.name,
      config: { from_email: i.from_email, from_name: i.from_name },
      ...(i.api_key ? { secret: ctx.deps.secrets.seal(i.api_key) } : {}),
      active: i.active,
      updated_at: new Date(),
    })
    .where(eq(userIntegrations.id, row.id))
    .returning();
  if (!saved) throw notFound();
  return presentIntegration(saved);
}

export async function deleteIntegration(ctx: Ctx, input: { owner: MailOwner; id: number }) {
  const row = await integrationRow(ctx, input.owner, input.id);
  await ctx.db.delete(userIntegrations).where(eq(userIntegrations.id, row.id));
}

/** GET /v1/businesses/integrations/types: the kinds, whether the business may have each, and has one. */
export async function integrationTypes(ctx: Ctx): Promise<TMailIntegrationType[]> {
  const owner = mailOwnerOf(ctx);
  const sendgrid = await businessSendgridEnabled(ctx);
  return [
    { type: 'sendgrid', available: sendgrid, connected: (await listIntegrations(ctx, owner)).length > 0 },
    { type: 'email', available: true, connected: (await listAccounts(ctx, owner)).length > 0 },
  ];
}

/** GET /v1/businesses/integrations/type/{type}. */
export async function integrationOfType(ctx: Ctx, input: { type: 'sendgrid' | 'email' }) {
  const owner = mailOwnerOf(ctx);
  if (input.type === 'sendgrid') {
    const [integration] = await listIntegrations(ctx, owner);
    return { type: input.type, integration: integration ?? null, account: null };
  }
  const row = await sendingAccount(ctx, owner);
  return { type: input.type, integration: null, account: row ? presentAccount(row) : null };
}

/** Whether the business has its own e-mail (the profile's `has_integrations`). */
export async function hasOwnMail(ctx: Ctx, owner: MailOwner) {
  return {
    sendgrid: (await sendingIntegration(ctx, owner)) !== null,
    email: (await sendingAccount(ctx, owner)) !== null,
  };
}
