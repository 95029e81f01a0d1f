// The Subscriptions calls of spec 001 §7, the business's packages and the agency's gift of a package
// (issue 22, ADR 076). The caller's account is its agency or its business; answers as ADR 076 lists them.

import { ZAgencyParams, ZPackage } from '@stn/contracts/businesses';
import { ZNoBody } from '@stn/contracts/contacts';
import { ZIdParams } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZAddPaymentMethodRequest,
  ZCoupon,
  ZCouponApplyRequest,
  ZCouponInfoRequest,
  ZCouponInfoResponse,
  ZCouponParams,
  ZCouponRequest,
  ZCouponsResponse,
  ZInvoicesResponse,
  ZOrderBumpRequest,
  ZPackagePurchase,
  ZPaymentMethodParams,
  ZPaymentMethodsResponse,
  ZPlanByNameParams,
  ZPlanByNameQuery,
  ZPlanOfferResponse,
  ZPlanOffersResponse,
  ZPlansOfPeriodParams,
  ZPurchasePackageRequest,
  ZSecretDomainParams,
  ZSetupSecretResponse,
  ZSubscribePlanParams,
  ZSubscribePlanRequest,
  ZSubscribeRequest,
  ZSubscriptionChangeResponse,
  ZSubscriptionStateResponse,
  ZSubscriptionUserParams,
  ZUnlimitedPlanRequest,
} from '@stn/contracts/subscriptions';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../platform/auth/plugin.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/http/errors.ts';
import { errorResponses as errors } from '../../platform/http/replies.ts';
import { type Ctx, platformSystemContext, targetAgency } from '../../platform/tenancy/context.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import { agencyExists, agencyForHost, agencyOfUser } from '../agencies/service.ts';
import { allPackages } from '../billing/service.ts';
import { businessBillingIdentity } from '../businesses/service.ts';
import { getUser } from '../users/service.ts';
import {
  addPaymentMethod,
  agencyCoupons,
  applyCoupon,
  type BillingAccount,
  buyPackage,
  couponInfo,
  couponInfoFor,
  createAgencyCoupon,
  deletePaymentMethod,
  endAgencyCoupon,
  invoices,
  offersFor,
  paymentMethods,
  purchasesOf,
  setCancelAtPeriodEnd,
  setDefaultPaymentMethod,
  setupSecret,
  setupSecretForSeller,
  subscribeAccount,
  subscribeUnlimited,
  subscriptionState,
} from './service.ts';

const tags = ['subscriptions'];
const manage = { capability: 'subscriptions.manage' as const };
const cards = { capability: 'paymentMethods.manage' as const };
const base = '/v1/subscriptions';

const message = (request: FastifyRequest, key: string) => translate(`subscriptions.${key}`, request.lang);

/** The account a user acts for: their business, or their agency. */
export async function accountOfUser(ctx: Ctx, userId: number): Promise<BillingAccount> {
  const user = await getUser(ctx, userId);
  if (!user || user.agency_id === null) throw notFound();
  if (user.business_id !== null) {
    const b = await businessBillingIdentity(ctx, { businessId: user.business_id });
    if (!b) throw notFound();
    return { kind: 'business', id: user.business_id, agencyId: b.agency_id, email: user.email, name: b.name };
  }
  const a = await agencyOfUser(ctx, { agencyId: user.agency_id });
  if (!a) throw notFound();
  return {
    kind: 'agency',
    id: user.agency_id,
    agencyId: user.agency_id,
    email: a.agency.email ?? user.email,
    name: a.agency.name,
  };
}

const callerAccount = (ctx: Ctx, request: FastifyRequest) => accountOfUser(ctx, actorOf(request).userId);

export const subscriptionsRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  /** The answer of a change: the new state and the caller's profile user (spec §4). */
  const changed = async (request: FastifyRequest, ctx: Ctx, key: string, data: unknown) => ({
    success: true as const,
    message: message(request, key),
    data: data as z.infer<typeof ZSubscriptionChangeResponse>['data'],
    user: await deps.ports.profile.user(ctx, { userId: actorOf(request).userId }),
  });

  // ---- Plans
  app.get(
    `${base}/plans`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Plans the caller can buy',
        response: { 200: ZPlanOffersResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return { success: true as const, data: await offersFor(ctx, await callerAccount(ctx, request)) };
    },
  );
  app.get(
    `${base}/type/:type/plans`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Plans the caller can buy, of one billing period (month or year)',
        params: ZPlansOfPeriodParams,
        response: { 200: ZPlanOffersResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      return { success: true as const, data: await offersFor(ctx, account, request.params.type) };
    },
  );
  app.get(
    `${base}/plans/:name`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'One plan by name (restrict=1: only a visible one)',
        params: ZPlanByNameParams,
        querystring: ZPlanByNameQuery,
        response: { 200: ZPlanOfferResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      // offersFor lists visible plans; without restrict a hidden plan is found by its name too.
      const name = request.params.name.toLowerCase();
      const offers = await offersFor(ctx, account);
      const plan = offers.find((p) => p.name.toLowerCase() === name);
      if (!plan) throw notFound();
      return { success: true as const, data: plan };
    },
  );

  // ---- State and invoices (ours: the screens need them)
  app.get(
    `${base}/current`,
    {
      config: manage,
      schema: {
        tags,
        summary: "The account's subscription",
        response: { 200: ZSubscriptionStateResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return {
        success: true as const,
        data: await subscriptionState(ctx, await callerAccount(ctx, request)),
      };
    },
  );
  app.get(
    `${base}/invoices`,
    {
      config: manage,
      schema: {
        tags,
        summary: "The account's invoices, newest first",
        response: { 200: ZInvoicesResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return { success: true as const, data: await invoices(ctx, await callerAccount(ctx, request)) };
    },
  );

  // ---- Payment methods
  app.get(
    `${base}/payment-methods`,
    {
      config: cards,
      schema: {
        tags,
        summary: 'Saved cards, the default first',
        response: { 200: ZPaymentMethodsResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return { success: true as const, data: await paymentMethods(ctx, await callerAccount(ctx, request)) };
    },
  );
  app.post(
    `${base}/payment-methods`,
    {
      config: cards,
      schema: {
        tags,
        summary:
          'Save a card (a payment method a confirmed setup intent made); the first becomes the default',
        body: ZAddPaymentMethodRequest,
        response: { 200: ZPaymentMethodsResponse.extend({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      const data = await addPaymentMethod(ctx, account, { paymentMethod: request.body.paymentMethod });
      return { success: true as const, message: message(request, 'card_added'), data };
    },
  );
  app.post(
    `${base}/payment-methods/:id`,
    {
      config: cards,
      schema: {
        tags,
        summary: 'Make a card the default (a past-due invoice is paid with it)',
        params: ZPaymentMethodParams,
        body: ZNoBody,
        response: { 200: ZPaymentMethodsResponse.extend({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      const data = await setDefaultPaymentMethod(ctx, account, { id: request.params.id });
      return { success: true as const, message: message(request, 'card_default'), data };
    },
  );
  app.delete(
    `${base}/payment-methods/:id`,
    {
      config: cards,
      schema: {
        tags,
        summary: 'Remove a card (not the only card of a live subscription)',
        params: ZPaymentMethodParams,
        response: { 200: ZPaymentMethodsResponse.extend({ message: z.string() }), ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      const data = await deletePaymentMethod(ctx, account, { id: request.params.id });
      return { success: true as const, message: message(request, 'card_removed'), data };
    },
  );
  app.get(
    `${base}/secret`,
    {
      config: cards,
      schema: {
        tags,
        summary: "A setup intent's client secret for the card form, with the publishable key",
        response: { 200: ZSetupSecretResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      return { success: true as const, data: await setupSecret(ctx, await callerAccount(ctx, request)) };
    },
  );
  app.post(
    `${base}/secret/:domain`,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "A setup intent for a site's order pages: the main domain sells to agencies, an agency's to businesses",
        security: [],
        params: ZSecretDomainParams,
        body: ZNoBody,
        response: { 200: ZSetupSecretResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = platformSystemContext(deps, 'payments', 'order page');
      const { agency } = await agencyForHost(ctx, { host: request.params.domain });
      if (!agency) throw notFound();
      const data = await setupSecretForSeller(ctx, {
        sellerAgencyId: agency.id,
        buyer: agency.is_main ? 'agency' : 'business',
      });
      return { success: true as const, data };
    },
  );

  // ---- Subscribe, change, coupons, cancel, resume
  app.post(
    `${base}/subscribe`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Subscribe, or change plan (prorated); a card named here becomes the default',
        body: ZSubscribeRequest,
        response: { 200: ZSubscriptionChangeResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      const data = await subscribeAccount(ctx, {
        account,
        planId: request.body.plan_id,
        ...optional(request.body),
      });
      return changed(request, ctx, 'subscribed', data);
    },
  );
  app.post(
    `${base}/:id/subscribe`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Subscribe to, or change to, plan {id}',
        params: ZSubscribePlanParams,
        body: ZSubscribePlanRequest,
        response: { 200: ZSubscriptionChangeResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      const data = await subscribeAccount(ctx, {
        account,
        planId: request.params.id,
        ...optional(request.body),
      });
      return changed(request, ctx, 'subscribed', data);
    },
  );
  app.post(
    `${base}/coupon-info`,
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary:
          "What a coupon or promotion code takes off (signed in: the caller's seller; else the domain's)",
        security: [],
        body: ZCouponInfoRequest,
        response: { 200: ZCouponInfoResponse, ...errors },
      },
    },
    async (request) => {
      const { code, plan_id: planId, domain } = request.body;
      if (request.actor) {
        const ctx = ctxOf(deps, request);
        const account = await callerAccount(ctx, request);
        return { success: true as const, data: await couponInfoFor(ctx, account, { code, planId }) };
      }
      const ctx = platformSystemContext(deps, 'payments', 'order page');
      const agency = domain ? (await agencyForHost(ctx, { host: domain })).agency : undefined;
      if (!agency) throw notFound();
      const data = await couponInfo(ctx, {
        sellerAgencyId: agency.id,
        buyer: agency.is_main ? 'agency' : 'business',
        code,
        planId,
      });
      return { success: true as const, data };
    },
  );
  app.post(
    `${base}/coupon/apply`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Apply a code to the live subscription',
        body: ZCouponApplyRequest,
        response: { 200: ZSubscriptionChangeResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const data = await applyCoupon(ctx, await callerAccount(ctx, request), { code: request.body.code });
      return changed(request, ctx, 'coupon_applied', data);
    },
  );
  app.post(
    `${base}/order-bump`,
    {
      config: manage,
      schema: {
        tags,
        summary: 'Buy an order-bump package once (default card)',
        body: ZOrderBumpRequest,
        response: { 200: purchaseAnswer, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      const data = await buyPackage(ctx, {
        account,
        packageId: request.body.package_id,
        source: 'card',
        orderBumpOnly: true,
      });
      return purchased(request, ctx, data);
    },
  );
  for (const [action, cancel] of [
    ['cancel', true],
    ['resume', false],
  ] as const) {
    app.post(
      `${base}/:userId/${action}`,
      {
        config: manage,
        schema: {
          tags,
          summary: cancel
            ? "Cancel at the end of the period (the caller's own account, or for an agency one of its businesses' users)"
            : 'Resume a subscription set to cancel',
          params: ZSubscriptionUserParams,
          body: ZNoBody,
          response: { 200: ZSubscriptionChangeResponse, ...errors },
        },
      },
      async (request) => {
        const ctx = ctxOf(deps, request);
        const account = await accountNamed(ctx, request, request.params.userId);
        const data = await setCancelAtPeriodEnd(ctx, account, cancel);
        return changed(request, ctx, cancel ? 'cancelled' : 'resumed', data);
      },
    );
  }
  app.post(
    `${base}/unlimited-plan`,
    {
      config: manage,
      schema: {
        tags,
        summary: "Subscribe to the seller's unlimited plan of a period",
        body: ZUnlimitedPlanRequest,
        response: { 200: ZSubscriptionChangeResponse, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const data = await subscribeUnlimited(ctx, await callerAccount(ctx, request), request.body);
      return changed(request, ctx, 'subscribed', data);
    },
  );

  // ---- Business packages
  app.get(
    '/v1/businesses/packages',
    {
      config: { capability: 'packages.buy' },
      schema: {
        tags: ['packages'],
        summary: "The agency's packages on sale and the business's purchases",
        response: {
          200: z.object({
            success: z.literal(true),
            data: z.object({ packages: z.array(ZPackage), purchases: z.array(ZPackagePurchase) }),
          }),
          ...errors,
        },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      const [packages, purchases] = await Promise.all([
        allPackages(ctx, { activeOnly: true }),
        purchasesOf(ctx, account),
      ]);
      return { success: true as const, data: { packages, purchases } };
    },
  );
  app.post(
    '/v1/businesses/purchase-package',
    {
      config: { capability: 'packages.buy' },
      schema: {
        tags: ['packages'],
        summary: 'Buy a package once with the default card; its credits are added at once',
        body: ZPurchasePackageRequest,
        response: { 200: purchaseAnswer, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const account = await callerAccount(ctx, request);
      const data = await buyPackage(ctx, { account, packageId: request.body.package_id, source: 'card' });
      return purchased(request, ctx, data);
    },
  );
  app.post(
    '/v1/business/:id/add-package',
    {
      config: { capability: 'businesses.manage' },
      schema: {
        tags: ['packages'],
        summary: 'Give one of the agency’s packages to one of its businesses (no charge)',
        params: ZIdParams,
        body: ZPurchasePackageRequest,
        response: { 200: purchaseAnswer, ...errors },
      },
    },
    async (request) => {
      const ctx = ctxOf(deps, request);
      const business = await businessBillingIdentity(ctx, { businessId: request.params.id });
      const tenant = ctx.tenant;
      if (
        !business ||
        (tenant.level !== 'platform' && (tenant.level !== 'agency' || tenant.agencyId !== business.agency_id))
      )
        throw notFound();
      const account: BillingAccount = {
        kind: 'business',
        id: request.params.id,
        agencyId: business.agency_id,
        email: '',
        name: business.name,
      };
      const data = await buyPackage(ctx, { account, packageId: request.body.package_id, source: 'agency' });
      return purchased(request, ctx, data);
    },
  );

  // ---- An agency's coupons (ours: an agency on the Stripe sandbox has no Stripe dashboard to make them in)
  const coupons = '/v1/agencies/:agency_id/subscription/coupons';
  const couponAgency = async (request: FastifyRequest & { params: { agency_id: number } }) => {
    const ctx = ctxOf(deps, request);
    const agencyId = targetAgency(ctx, request.params.agency_id);
    if (!(await agencyExists(ctx, { id: agencyId }))) throw notFound();
    return { ctx, agencyId };
  };
  app.get(
    coupons,
    {
      config: { capability: 'plans.manage' },
      schema: {
        tags,
        summary: "The agency's coupon codes (on its own Stripe account)",
        params: ZAgencyParams,
        response: { 200: ZCouponsResponse, ...errors },
      },
    },
    async (request) => {
      const { ctx, agencyId } = await couponAgency(request);
      return { success: true as const, data: await agencyCoupons(ctx, { agencyId }) };
    },
  );
  app.post(
    coupons,
    {
      config: { capability: 'plans.manage' },
      schema: {
        tags,
        summary: 'Make a coupon code: percent or amount off, once, for some months or forever',
        params: ZAgencyParams,
        body: ZCouponRequest,
        response: {
          200: z.object({ success: z.literal(true), message: z.string(), data: ZCoupon }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { ctx, agencyId } = await couponAgency(request);
      const data = await createAgencyCoupon(ctx, { agencyId, coupon: request.body });
      return { success: true as const, message: message(request, 'coupon_made'), data };
    },
  );
  app.delete(
    `${coupons}/:code`,
    {
      config: { capability: 'plans.manage' },
      schema: {
        tags,
        summary: 'Switch a coupon code off',
        params: ZAgencyParams.extend(ZCouponParams.shape),
        response: {
          200: z.object({ success: z.literal(true), message: z.string(), data: ZCoupon }),
          ...errors,
        },
      },
    },
    async (request) => {
      const { ctx, agencyId } = await couponAgency(request);
      const data = await endAgencyCoupon(ctx, { agencyId, code: request.params.code });
      return { success: true as const, message: message(request, 'coupon_ended'), data };
    },
  );

  async function purchased(request: FastifyRequest, ctx: Ctx, data: z.infer<typeof ZPackagePurchase>) {
    return {
      success: true as const,
      message: message(request, 'package_bought'),
      data,
      user: await deps.ports.profile.user(ctx, { userId: actorOf(request).userId }),
    };
  }
};

const purchaseAnswer = z.object({
  success: z.literal(true),
  message: z.string(),
  data: ZPackagePurchase,
  user: z.unknown(),
});

const optional = (b: { paymentMethod?: string; coupon?: string }) => ({
  ...(b.paymentMethod ? { paymentMethod: b.paymentMethod } : {}),
  ...(b.coupon ? { coupon: b.coupon } : {}),
});

/**
 * The account cancel and resume act on: the caller's own, or for an agency one of its businesses (named by
 * one of that business's users). Any other user: 404.
 */
async function accountNamed(ctx: Ctx, request: FastifyRequest, userId: number): Promise<BillingAccount> {
  const actor = actorOf(request);
  if (userId === actor.userId) return accountOfUser(ctx, userId);
  const account = await accountOfUser(ctx, userId).catch(() => null);
  const tenant = ctx.tenant;
  if (account?.kind === 'business' && tenant.level === 'agency' && account.agencyId === tenant.agencyId)
    return account;
  throw notFound();
}
