import crypto from 'node:crypto';
import { translate } from '@stn/contracts/i18n';
import {
  productSlug,
  type TBusinessOrderRequest,
  type TBuyer,
  type TModalChargeRequest,
  type TModalUser,
  type TModalUserListQuery,
  type TModalUserRequest,
  type TOrderBump,
  type TOrderPage,
  type TOrderPlans,
  type TPopupOffer,
  type TProductData,
  type TRegisterAgencyRequest,
  ZBusinessOrderRequest,
  ZRegisterAgencyRequest,
} from '@stn/contracts/orders';
import type { TRoleGroup } from '@stn/contracts/roles';
import type { TPlanOffer, TSubscriptionState } from '@stn/contracts/subscriptions';
import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import type { SessionClient } from '../../platform/auth/sessions.ts';
import { AppError, forbidden, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import {
  actingUser,
  asTenant,
  type Ctx,
  found,
  inTransaction,
  scope,
  targetAgency,
} from '../../platform/tenancy/context.ts';
import {
  agencyForHost,
  agencyForOrders,
  agencySiteAddress,
  createSignupAgency,
} from '../agencies/service.ts';
import { startSession } from '../auth/service.ts';
import { allPackages } from '../billing/service.ts';
import { businessNames, createSignupBusiness } from '../businesses/service.ts';
import { siteData } from '../sites/service.ts';
import { buyPackage, couponInfo, planOffers, subscribeAccount } from '../subscriptions/service.ts';
import { getUser, inviteUser } from '../users/service.ts';
import { modalUsers } from './tables.ts';

// Orders (issue 22, ADR 076): the order pages' sign-ups. An agency buys from the platform on the main
// domain; a business buys from its agency on the agency's site. The accounts are made and subscribed in
// one transaction: the Stripe calls come last, and a card that fails rolls every row back, so a declined
// card leaves no agency, business or user behind (Stripe's side keeps at most a customer without a card).

/** Trial days of the /trial page when the plan has none of its own. */
export const DEFAULT_TRIAL_DAYS = 14;

type Session = { token: string; expiresAt: Date; roleGroup: TRoleGroup };
export type Registration = { session: Session; state: TSubscriptionState };

// ---------------------------------------------------------------------------------------------------
// Sellers: whose order pages a host shows

type Seller = {
  agencyId: number;
  name: string;
  isMainDomain: boolean;
  isMainAgency: boolean;
  site: TOrderPlans['site'];
};

/** The agency selling on a host; 404 for a host no active agency owns. */
async function sellerOf(ctx: Ctx, host: string): Promise<Seller> {
  const resolved = await agencyForHost(ctx, { host });
  if (!resolved.agency) throw notFound();
  const site = siteData(ctx.deps.config, resolved);
  return {
    agencyId: resolved.agency.id,
    name: resolved.agency.name,
    isMainDomain: resolved.isMainDomain,
    isMainAgency: resolved.agency.is_main,
    site: {
      title: site.title,
      headerLogo: site.headerLogo,
      supportEmail: site.supportEmail,
      address: site.address,
    },
  };
}

/** Who buys on a site's order pages: agencies on the main domain, businesses on an agency's site. */
const buyerOf = (seller: Seller): TBuyer => (seller.isMainDomain ? 'agency' : 'business');

/** The active packages a seller offers as order bumps. */
async function orderBumpsOf(ctx: Ctx, sellerAgencyId: number): Promise<TOrderBump[]> {
  const sellerCtx = asTenant(ctx, { level: 'agency', agencyId: sellerAgencyId });
  const list = await allPackages(sellerCtx, { activeOnly: true });
  return list
    .filter((p) => p.order_bump)
    .map((p) => ({ id: p.id, name: p.name, kind: p.kind, quantity: p.quantity, price_cents: p.price_cents }));
}

/** One plan among what the seller offers this buyer; a 422 on plan_id otherwise. */
async function offeredPlan(ctx: Ctx, seller: Seller, buyer: TBuyer, planId: number): Promise<TPlanOffer> {
  const offers = await planOffers(ctx, { sellerAgencyId: seller.agencyId, buyer });
  const plan = offers.find((p) => p.id === planId);
  if (!plan) throw invalid('plan_id', 'validation.in');
  return plan;
}

/** An agency that sells its businesses plans needs card payments (its own Stripe keys); the platform always has. */
async function assertSellsOnline(ctx: Ctx, sellerAgencyId: number): Promise<void> {
  const agency = await agencyForOrders(ctx, { id: sellerAgencyId });
  if (!agency) throw notFound();
  if (!agency.is_main && !agency.cardPayments)
    throw new AppError('VALIDATION', 'orders.no_card_payments', { plan_id: 'orders.no_card_payments' });
}

function splitName(full: string): { firstName: string; lastName: string } {
  const parts = full.trim().split(/\s+/);
  return { firstName: parts[0] ?? '', lastName: parts.slice(1).join(' ') };
}

// ---------------------------------------------------------------------------------------------------
// Order page data

export async function orderPlans(ctx: Ctx, input: { host: string; buyer?: TBuyer }): Promise<TOrderPlans> {
  const seller = await sellerOf(ctx, input.host);
  // The main domain sells to agencies (/trial) and, on /business/register, to businesses; an agency's site
  // to businesses only.
  const buyer = seller.isMainDomain && input.buyer ? input.buyer : buyerOf(seller);
  return {
    buyer,
    seller_name: seller.name,
    site: seller.site,
    plans: await planOffers(ctx, { sellerAgencyId: seller.agencyId, buyer }),
    order_bumps: await orderBumpsOf(ctx, seller.agencyId),
  };
}

export async function orderPage(ctx: Ctx, input: { host: string; planId: number }): Promise<TOrderPage> {
  const seller = await sellerOf(ctx, input.host);
  const buyer = buyerOf(seller);
  const offers = await planOffers(ctx, { sellerAgencyId: seller.agencyId, buyer });
  const plan = found(offers.find((p) => p.id === input.planId));
  return {
    buyer,
    seller_name: seller.name,
    site: seller.site,
    plan,
    order_bumps: await orderBumpsOf(ctx, seller.agencyId),
  };
}

/**
 * A product: a visible plan of the site's seller addressed by the slug of its name. On the main domain the
 * platform sells agency plans and the main agency's business plans; elsewhere the agency's business plans.
 */
export async function productData(ctx: Ctx, input: { host: string; slug: string }): Promise<TProductData> {
  const seller = await sellerOf(ctx, input.host);
  const slug = productSlug(input.slug);
  const buyers: TBuyer[] = seller.isMainDomain ? ['agency', 'business'] : ['business'];
  for (const buyer of buyers) {
    const offers = await planOffers(ctx, { sellerAgencyId: seller.agencyId, buyer });
    const plan = offers.find((p) => productSlug(p.name) === slug);
    if (plan)
      return {
        buyer,
        slug,
        seller_name: seller.name,
        site: seller.site,
        plan,
        order_bumps: await orderBumpsOf(ctx, seller.agencyId),
      };
  }
  throw notFound();
}

/** A coupon or promotion code of the site's seller (the order pages' coupon field). */
export async function discount(ctx: Ctx, input: { host: string; code: string; planId?: number }) {
  const seller = await sellerOf(ctx, input.host);
  return couponInfo(ctx, {
    sellerAgencyId: seller.agencyId,
    buyer: buyerOf(seller),
    code: input.code,
    ...(input.planId ? { planId: input.planId } : {}),
  });
}

// ---------------------------------------------------------------------------------------------------
// Registrations

/**
 * A new agency from /register, /order or /trial on the main domain: the agency (not free_fee) and its
 * AgencyAdmin, the questionnaire in its settings, subscribed to the platform's plan, signed in. Off the
 * main domain: 404. One transaction: a card that fails leaves nothing behind.
 */
export async function registerAgency(
  ctx: Ctx,
  input: TRegisterAgencyRequest & { host: string; client: SessionClient },
): Promise<Registration> {
  const seller = await sellerOf(ctx, input.host);
  if (!seller.isMainDomain || !seller.isMainAgency) throw notFound();
  return registerAgencyWith(ctx, seller, input);
}

async function registerAgencyWith(
  ctx: Ctx,
  seller: Seller,
  input: TRegisterAgencyRequest & { client: SessionClient },
): Promise<Registration> {
  const plan = await offeredPlan(ctx, seller, 'agency', input.plan_id);
  const trialDays = input.trial ? plan.trial_days || DEFAULT_TRIAL_DAYS : undefined;
  const { firstName, lastName } = splitName(input.full_name);
  return inTransaction(ctx, async (c) => {
    const { agencyId, userId } = await createSignupAgency(c, {
      name: input.company_name,
      email: input.email,
      password: input.password,
      firstName,
      lastName,
      phone: input.phone,
      subdomain: input.subdomain,
      ...(input.domain ? { domain: input.domain } : {}),
      signup: {
        industry: input.industry,
        businesses_count: input.businesses_count ?? null,
        goals: input.goals ?? null,
        people_count: input.people_count ?? null,
        contacts_count: input.contacts_count ?? null,
        departments: input.departments ?? null,
        plan_id: plan.id,
        trial: input.trial,
        at: new Date().toISOString(),
      },
    });
    // Stripe last: its calls cannot be rolled back, our rows can.
    const state = await subscribeAccount(c, {
      account: { kind: 'agency', id: agencyId, agencyId, email: input.email, name: input.company_name },
      planId: plan.id,
      paymentMethod: input.paymentMethod,
      ...(input.coupon ? { coupon: input.coupon } : {}),
      ...(trialDays ? { trialDays } : {}),
    });
    const session = await startSession(c, { userId, client: input.client });
    return { session, state };
  });
}

/**
 * A business signs up with the agency whose site this is (/business/register, /b/register): the business
 * with the create defaults and its BusinessAdmin, subscribed on the agency's Stripe, signed in.
 */
export async function registerBusiness(
  ctx: Ctx,
  input: TBusinessOrderRequest & { host: string; client: SessionClient },
): Promise<Registration> {
  const seller = await sellerOf(ctx, input.host);
  return registerBusinessWith(ctx, seller, input);
}

async function registerBusinessWith(
  ctx: Ctx,
  seller: Seller,
  input: TBusinessOrderRequest & { client: SessionClient },
): Promise<Registration> {
  await assertSellsOnline(ctx, seller.agencyId);
  const plan = await offeredPlan(ctx, seller, 'business', input.plan_id);
  const { firstName, lastName } = splitName(input.full_name);
  return inTransaction(ctx, async (c) => {
    const { businessId, userId } = await createSignupBusiness(c, {
      agencyId: seller.agencyId,
      name: input.business_name,
      planId: plan.id,
      owner: { email: input.email, password: input.password, firstName, lastName, phone: input.phone },
    });
    const state = await subscribeAccount(c, {
      account: {
        kind: 'business',
        id: businessId,
        agencyId: seller.agencyId,
        email: input.email,
        name: input.business_name,
      },
      planId: plan.id,
      paymentMethod: input.paymentMethod,
      ...(input.coupon ? { coupon: input.coupon } : {}),
    });
    const session = await startSession(c, { userId, client: input.client });
    return { session, state };
  });
}

/** The form's fields checked by a schema the route could not name in advance: the same 422 as a route's. */
function parsed<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.') || 'body';
    fields[field] ??= issue.message;
  }
  throw new AppError('VALIDATION', undefined, fields);
}

/** /f/:slug: buys that product, as an agency (an agency plan) or as a business, by the plan's buyer. */
export async function registerFromProduct(
  ctx: Ctx,
  input: { host: string; slug: string; body: Record<string, unknown>; client: SessionClient },
): Promise<Registration> {
  const product = await productData(ctx, { host: input.host, slug: input.slug });
  const seller = await sellerOf(ctx, input.host);
  const body = { ...input.body, plan_id: product.plan.id };
  if (product.buyer === 'agency')
    return registerAgencyWith(ctx, seller, { ...parsed(ZRegisterAgencyRequest, body), client: input.client });
  return registerBusinessWith(ctx, seller, { ...parsed(ZBusinessOrderRequest, body), client: input.client });
}

/** The signed-in owner's account, as billing names it, and the agency that sells to it. */
async function callerAccount(ctx: Ctx) {
  const actor = actingUser(ctx);
  if (actor.role !== 'AgencyAdmin' && actor.role !== 'BusinessAdmin') throw forbidden();
  const user = found(await getUser(ctx, actor.userId));
  const agencyId = found(actor.agencyId);
  const agency = found(await agencyForOrders(ctx, { id: agencyId }));
  if (actor.role === 'AgencyAdmin') {
    const main = agency.is_main ? agency : null;
    return {
      account: { kind: 'agency' as const, id: agencyId, agencyId, email: user.email, name: agency.name },
      sellerAgencyId: main?.id ?? (await mainSellerId(ctx)),
    };
  }
  const businessId = found(actor.businessId);
  const names = await businessNames(ctx, { ids: [businessId] });
  return {
    account: {
      kind: 'business' as const,
      id: businessId,
      agencyId,
      email: user.email,
      name: names.get(businessId) ?? '',
    },
    sellerAgencyId: agencyId,
  };
}

/** The main agency (the platform's seller). */
async function mainSellerId(ctx: Ctx): Promise<number> {
  const main = await agencyForHost(ctx, { host: ctx.deps.config.mainDomain });
  return found(main.agency).id;
}

/** POST /v1/register/order-bump: the new account buys one of its seller's order bumps with its card. */
export async function buyOrderBump(ctx: Ctx, input: { packageId: number }) {
  const { account, sellerAgencyId } = await callerAccount(ctx);
  const bumps = await orderBumpsOf(ctx, sellerAgencyId);
  if (!bumps.some((b) => b.id === input.packageId)) throw invalid('package_id', 'validation.in');
  return buyPackage(ctx, { account, packageId: input.packageId, source: 'card' });
}

// ---------------------------------------------------------------------------------------------------
// The agency's payment popup: its visitors (modal users) and their payment

type ModalUserRow = typeof modalUsers.$inferSelect;

function toModalUser(r: ModalUserRow): TModalUser {
  return {
    id: r.id,
    email: r.email,
    full_name: r.full_name,
    business_name: r.business_name,
    phone: r.phone,
    plan_id: r.plan_id,
    status: r.status,
    business_id: r.business_id,
    last_error: r.last_error,
    created_at: r.created_at.toISOString(),
  };
}

/** The popup's plan: the one the visitor chose, else the popup's; one of the agency's visible business plans. */
async function popupPlan(ctx: Ctx, seller: Seller, planId: number | null | undefined): Promise<TPlanOffer> {
  const agency = found(await agencyForOrders(ctx, { id: seller.agencyId }));
  const id = planId ?? agency.popup.plan_id;
  if (!id) throw invalid('plan_id', 'validation.required');
  return offeredPlan(ctx, seller, 'business', id);
}

/**
 * The popup's offer on a site (GET /v1/agencies/popup-offer, the /popup page and /popup.js): what the
 * agency set on its popup screen and its plan. Off, or a plan it no longer offers: no plan.
 */
export async function popupOffer(
  ctx: Ctx,
  input: { host: string },
): Promise<TPopupOffer & { agencyId: number }> {
  const seller = await sellerOf(ctx, input.host);
  const agency = found(await agencyForOrders(ctx, { id: seller.agencyId }));
  const { popup } = agency;
  const offers =
    popup.enabled && popup.plan_id
      ? await planOffers(ctx, { sellerAgencyId: seller.agencyId, buyer: 'business' })
      : [];
  const plan = offers.find((p) => p.id === popup.plan_id) ?? null;
  return {
    agencyId: seller.agencyId,
    enabled: popup.enabled && plan !== null,
    title: popup.title,
    description: popup.description,
    button_text: popup.button_text,
    plan,
    site: { title: seller.site.title, headerLogo: seller.site.headerLogo },
  };
}

/** POST /v1/agencies/popup-script: the snippet for the agency's websites, naming its own white-label site. */
export async function popupScript(ctx: Ctx, input: { agencyId?: number }): Promise<{ script: string }> {
  const agencyId = targetAgency(ctx, input.agencyId);
  const origin = await agencySiteAddress(ctx, { id: agencyId });
  return { script: `<script src="${origin}/popup.js" data-agency="${agencyId}" async></script>` };
}

/** POST /v1/agencies/modal-users (public): a visitor of the popup on an agency's site. */
export async function createModalUser(ctx: Ctx, input: TModalUserRequest): Promise<TModalUser> {
  const seller = await sellerOf(ctx, input.domain);
  const plan = await popupPlan(ctx, seller, input.plan_id);
  const [row] = await ctx.db
    .insert(modalUsers)
    .values({
      agency_id: seller.agencyId,
      email: input.email,
      full_name: input.full_name,
      business_name: input.business_name,
      phone: input.phone,
      plan_id: plan.id,
    })
    .returning();
  return toModalUser(found(row));
}

/** GET /v1/agencies/modal-users: the agency's popup visitors, newest first. */
export async function listModalUsers(ctx: Ctx, q: TModalUserListQuery) {
  const agencyId = targetAgency(ctx, q.agency_id);
  const kw = q.keyword ? likePattern(q.keyword) : undefined;
  const where = scope(
    ctx,
    { agency_id: modalUsers.agency_id },
    eq(modalUsers.agency_id, agencyId),
    q.status ? eq(modalUsers.status, q.status) : undefined,
    kw
      ? or(ilike(modalUsers.email, kw), ilike(modalUsers.full_name, kw), ilike(modalUsers.business_name, kw))
      : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(modalUsers).where(where).orderBy(desc(modalUsers.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(modalUsers).where(where),
  ]);
  return listEnvelope(rows.map(toModalUser), total?.n ?? 0, q);
}

/**
 * POST /v1/agencies/modal-users/charge (public): the visitor pays the popup's plan. Makes the business and
 * its owner (who gets a link to choose a password), subscribes it on the agency's Stripe and marks the
 * visitor paid. A card that fails: 422 with Stripe's message, the visitor marked failed with it, nothing
 * else left behind.
 */
export async function chargeModalUser(ctx: Ctx, input: TModalChargeRequest): Promise<TModalUser> {
  const [row] = await ctx.db.select().from(modalUsers).where(eq(modalUsers.id, input.modal_user_id));
  if (!row) throw notFound();
  if (row.status === 'paid') throw invalid('modal_user_id', 'orders.already_paid');
  const agency = found(await agencyForOrders(ctx, { id: row.agency_id }));
  if (!agency.active) throw notFound();
  await assertSellsOnline(ctx, agency.id);
  const seller: Seller = {
    agencyId: agency.id,
    name: agency.name,
    isMainDomain: false,
    isMainAgency: agency.is_main,
    site: { title: agency.name, headerLogo: null, supportEmail: agency.email, address: null },
  };
  const plan = await popupPlan(ctx, seller, row.plan_id);
  const { firstName, lastName } = splitName(row.full_name);
  try {
    return await inTransaction(ctx, async (c) => {
      const { businessId } = await createSignupBusiness(c, {
        agencyId: agency.id,
        name: row.business_name || row.full_name,
        planId: plan.id,
        owner: {
          email: row.email,
          password: crypto.randomBytes(24).toString('base64url'),
          firstName,
          lastName,
          phone: row.phone,
        },
      });
      await subscribeAccount(c, {
        account: {
          kind: 'business',
          id: businessId,
          agencyId: agency.id,
          email: row.email,
          name: row.business_name || row.full_name,
        },
        planId: plan.id,
        paymentMethod: input.paymentMethod,
        ...(input.coupon ? { coupon: input.coupon } : {}),
      });
      const [paid] = await c.db
        .update(modalUsers)
        .set({ status: 'paid', business_id: businessId, last_error: null, updated_at: new Date() })
        .where(and(eq(modalUsers.id, row.id)))
        .returning();
      // Nobody knows the random password: the owner chooses one by the e-mailed link.
      inviteUser(c, { email: row.email });
      return toModalUser(found(paid));
    });
  } catch (err) {
    if (err instanceof AppError && err.fields?.payment) {
      await ctx.db
        .update(modalUsers)
        .set({
          status: 'failed',
          // Stripe's own message (the error's field key carries it as a parameter).
          last_error: translate(err.fields.payment, 'en', err.params),
          updated_at: new Date(),
        })
        .where(eq(modalUsers.id, row.id));
    }
    throw err;
  }
}
