// Google Business locations (issue 25, ADR 091): a business connects its Google Business Profile account by
// OAuth (the refresh token sealed, never answered), lists the account's locations, and ties one location to
// each install; the location's place id gives the install's review link, the merge field {review_link}.
import crypto from 'node:crypto';
import {
  reviewLinkOf,
  type TGoogleAccountLocation,
  type TGoogleConnectRequest,
  type TGoogleIntegration,
  type TGoogleLocation,
  type TGoogleLocationRequest,
} from '@stn/contracts/google';
import { asc, eq, inArray, ne } from 'drizzle-orm';
import { GoogleRefusedError, googleClientFor } from '../../platform/google/client.ts';
import { AppError, invalid } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, found, scope } from '../../platform/tenancy/context.ts';
import { installNames } from '../installs/service.ts';
import { googleIntegrations, googleLocations } from './tables.ts';

type IntegrationRow = typeof googleIntegrations.$inferSelect;
type LocationRow = typeof googleLocations.$inferSelect;

/** A sign-in started here lives this long (the consent page should not take longer). */
const STATE_TTL_MS = 30 * 60_000;
/** An access token this close to its end is refreshed first. */
const EXPIRY_MARGIN_MS = 60_000;

const stateKey = (ctx: Ctx) => ctx.deps.secrets.derive('google-oauth-state');
const userIdOf = (ctx: Ctx) => (ctx.by.kind === 'user' ? ctx.by.actor.userId : 0);

function sign(ctx: Ctx, payload: string) {
  return crypto.createHmac('sha256', stateKey(ctx)).update(payload).digest('base64url');
}

/**
 * The state of a sign-in: the business, the user and an expiry, signed with a key of its own purpose, so
 * that a code comes back only to the business and user that asked for it (no cross-site connection).
 */
function newState(ctx: Ctx, now: number): string {
  const { businessId } = businessOf(ctx);
  const payload = `${businessId}.${userIdOf(ctx)}.${now + STATE_TTL_MS}.${crypto.randomBytes(8).toString('hex')}`;
  return `${Buffer.from(payload).toString('base64url')}.${sign(ctx, payload)}`;
}

function checkState(ctx: Ctx, state: string, now: number) {
  const { businessId } = businessOf(ctx);
  const [b64, mac] = state.split('.');
  const payload = b64 ? Buffer.from(b64, 'base64url').toString('utf8') : '';
  const expected = Buffer.from(sign(ctx, payload));
  const given = Buffer.from(mac ?? '');
  const [biz, user, exp] = payload.split('.');
  const ok =
    given.length === expected.length &&
    crypto.timingSafeEqual(given, expected) &&
    Number(biz) === businessId &&
    Number(user) === userIdOf(ctx) &&
    Number(exp) > now;
  if (!ok) throw invalid('state', 'google.state_invalid');
}

/** GET /v1/google-integrations/authorize: where the browser goes for Google's consent. */
export function startConnect(ctx: Ctx, input: { redirect_uri: string }, now = Date.now()) {
  const state = newState(ctx, now);
  return {
    url: googleClientFor(ctx.deps.config).authorizeUrl({ redirectUri: input.redirect_uri, state }),
    state,
  };
}

const presentIntegration = (r: IntegrationRow): TGoogleIntegration => ({
  id: r.id,
  account_id: r.account_id,
  account_name: r.account_name,
  email: r.email,
  created_at: r.created_at.toISOString(),
});

export async function listGoogleIntegrations(ctx: Ctx): Promise<TGoogleIntegration[]> {
  businessOf(ctx);
  const rows = await ctx.db
    .select()
    .from(googleIntegrations)
    .where(scope(ctx, googleIntegrations))
    .orderBy(asc(googleIntegrations.id));
  return rows.map(presentIntegration);
}

/**
 * POST /v1/google-integrations: finishes the consent. The code is exchanged at Google's token endpoint, the
 * account read, and the refresh token kept sealed; connecting the same account again replaces its tokens.
 */
export async function connectGoogle(
  ctx: Ctx,
  input: TGoogleConnectRequest,
  now = Date.now(),
): Promise<TGoogleIntegration> {
  const { agencyId, businessId } = businessOf(ctx);
  checkState(ctx, input.state, now);
  const client = googleClientFor(ctx.deps.config);
  let tokens: Awaited<ReturnType<typeof client.exchangeCode>>;
  try {
    tokens = await client.exchangeCode({ code: input.code, redirectUri: input.redirect_uri });
  } catch (err) {
    if (err instanceof GoogleRefusedError) throw invalid('code', 'google.code_refused');
    throw err;
  }
  // Google gives a refresh token only with access_type=offline and prompt=consent, which we ask for.
  if (!tokens.refreshToken) throw invalid('code', 'google.code_refused');
  const [accounts, email] = await Promise.all([
    client.accounts(tokens.accessToken),
    client.email(tokens.accessToken),
  ]);
  const account = accounts[0];
  if (!account) throw invalid('code', 'google.no_account');
  const { seal } = ctx.deps.secrets;
  const values = {
    account_name: account.accountName,
    email,
    refresh_token: seal(tokens.refreshToken),
    access_token: seal(tokens.accessToken),
    access_expires_at: new Date(now + tokens.expiresIn * 1000),
  };
  const [row] = await ctx.db
    .insert(googleIntegrations)
    .values({ agency_id: agencyId, business_id: businessId, account_id: account.name, ...values })
    .onConflictDoUpdate({
      target: [googleIntegrations.business_id, googleIntegrations.account_id],
      set: values,
    })
    .returning();
  return presentIntegration(found(row));
}

async function findIntegration(ctx: Ctx, id: number): Promise<IntegrationRow> {
  businessOf(ctx);
  const [row] = await ctx.db
    .select()
    .from(googleIntegrations)
    .where(scope(ctx, googleIntegrations, eq(googleIntegrations.id, id)))
    .limit(1);
  return found(row);
}

/** DELETE /v1/google-integrations/{id}: the connection and the locations tied through it. */
export async function disconnectGoogle(ctx: Ctx, id: number): Promise<void> {
  const row = await findIntegration(ctx, id);
  await ctx.db.delete(googleIntegrations).where(eq(googleIntegrations.id, row.id));
}

/** A live access token of the connection: the kept one, or a fresh one by the refresh token. */
async function accessToken(ctx: Ctx, row: IntegrationRow, now: number): Promise<string> {
  const { open, seal } = ctx.deps.secrets;
  if (row.access_token && row.access_expires_at && row.access_expires_at.getTime() > now + EXPIRY_MARGIN_MS)
    return open(row.access_token);
  let tokens: Awaited<ReturnType<ReturnType<typeof googleClientFor>['refresh']>>;
  try {
    tokens = await googleClientFor(ctx.deps.config).refresh(open(row.refresh_token));
  } catch (err) {
    if (err instanceof GoogleRefusedError) throw new AppError('CONFLICT', 'google.reconnect');
    throw err;
  }
  await ctx.db
    .update(googleIntegrations)
    .set({
      access_token: seal(tokens.accessToken),
      access_expires_at: new Date(now + tokens.expiresIn * 1000),
      ...(tokens.refreshToken ? { refresh_token: seal(tokens.refreshToken) } : {}),
    })
    .where(eq(googleIntegrations.id, row.id));
  return tokens.accessToken;
}

/** GET /v1/businesses/locations-by-google/{id}: the connected account's locations, as Google lists them. */
export async function locationsByGoogle(
  ctx: Ctx,
  id: number,
  now = Date.now(),
): Promise<TGoogleAccountLocation[]> {
  const row = await findIntegration(ctx, id);
  const client = googleClientFor(ctx.deps.config);
  let list: Awaited<ReturnType<typeof client.locations>>;
  try {
    list = await client.locations(await accessToken(ctx, row, now), row.account_id);
  } catch (err) {
    if (err instanceof GoogleRefusedError) throw new AppError('CONFLICT', 'google.reconnect');
    throw err;
  }
  return list.map((l) => ({
    location_id: l.name,
    title: l.title,
    address: l.address,
    place_id: l.placeId,
    review_link: reviewLinkOf(l.placeId),
  }));
}

async function presentLocations(ctx: Ctx, rows: LocationRow[]): Promise<TGoogleLocation[]> {
  const names = await installNames(ctx, { ids: [...new Set(rows.map((r) => r.install_id))] });
  return rows.map((r) => ({
    id: r.id,
    google_integration_id: r.google_integration_id,
    install_id: r.install_id,
    install_name: names.get(r.install_id) ?? '',
    location_id: r.location_id,
    title: r.title,
    address: r.address,
    place_id: r.place_id,
    review_link: r.review_link,
    created_at: r.created_at.toISOString(),
  }));
}

async function findLocation(ctx: Ctx, id: number): Promise<LocationRow> {
  businessOf(ctx);
  const [row] = await ctx.db
    .select()
    .from(googleLocations)
    .where(scope(ctx, googleLocations, eq(googleLocations.id, id)))
    .limit(1);
  return found(row);
}

export async function listGoogleLocations(ctx: Ctx): Promise<TGoogleLocation[]> {
  businessOf(ctx);
  const rows = await ctx.db
    .select()
    .from(googleLocations)
    .where(scope(ctx, googleLocations))
    .orderBy(asc(googleLocations.id));
  return presentLocations(ctx, rows);
}

export async function getGoogleLocation(ctx: Ctx, id: number): Promise<TGoogleLocation> {
  const [one] = await presentLocations(ctx, [await findLocation(ctx, id)]);
  return found(one);
}

/**
 * What a location to save is: a connection of the business, an install of the business without another
 * location, and a location the connected account really has (read from Google, with its title, address and
 * place id, so nothing a client typed becomes the review link).
 */
async function checked(ctx: Ctx, input: TGoogleLocationRequest, exceptId?: number) {
  const [integration] = await ctx.db
    .select()
    .from(googleIntegrations)
    .where(scope(ctx, googleIntegrations, eq(googleIntegrations.id, input.google_integration_id)))
    .limit(1);
  if (!integration) throw invalid('google_integration_id', 'google.integration_unknown');
  const names = await installNames(ctx, { ids: [input.install_id] });
  if (!names.has(input.install_id)) throw invalid('install_id', 'google.install_unknown');
  const [taken] = await ctx.db
    .select({ id: googleLocations.id })
    .from(googleLocations)
    .where(
      scope(
        ctx,
        googleLocations,
        eq(googleLocations.install_id, input.install_id),
        exceptId ? ne(googleLocations.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw invalid('install_id', 'google.install_taken');
  const locations = await locationsByGoogle(ctx, integration.id);
  const location = locations.find((l) => l.location_id === input.location_id);
  if (!location) throw invalid('location_id', 'google.location_unknown');
  return {
    google_integration_id: integration.id,
    install_id: input.install_id,
    location_id: location.location_id,
    title: location.title,
    address: location.address,
    place_id: location.place_id,
    review_link: location.review_link,
  };
}

export async function createGoogleLocation(
  ctx: Ctx,
  input: TGoogleLocationRequest,
): Promise<TGoogleLocation> {
  const { agencyId, businessId } = businessOf(ctx);
  const values = await checked(ctx, input);
  const [row] = await ctx.db
    .insert(googleLocations)
    .values({ agency_id: agencyId, business_id: businessId, ...values })
    .returning();
  return getGoogleLocation(ctx, found(row).id);
}

export async function updateGoogleLocation(
  ctx: Ctx,
  input: TGoogleLocationRequest & { id: number },
): Promise<TGoogleLocation> {
  const row = await findLocation(ctx, input.id);
  const values = await checked(ctx, input, row.id);
  await ctx.db
    .update(googleLocations)
    .set({ ...values, updated_at: new Date() })
    .where(eq(googleLocations.id, row.id));
  return getGoogleLocation(ctx, row.id);
}

export async function deleteGoogleLocation(ctx: Ctx, id: number): Promise<void> {
  const row = await findLocation(ctx, id);
  await ctx.db.delete(googleLocations).where(eq(googleLocations.id, row.id));
}

/**
 * The review links of these installs of the context's business (an install without a location: none), for
 * the merge field {review_link}: the `reviews` port that templates, broadcasts and automations ask.
 */
export async function reviewLinksOfInstalls(
  ctx: Ctx,
  input: { installIds: number[] },
): Promise<Map<number, string>> {
  const ids = [...new Set(input.installIds)];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ install_id: googleLocations.install_id, review_link: googleLocations.review_link })
    .from(googleLocations)
    .where(scope(ctx, googleLocations, inArray(googleLocations.install_id, ids)));
  return new Map(rows.map((r) => [r.install_id, r.review_link]));
}
