// The order pages' API (issue 22, ADR 076; spec 001 register/*, business/order, order-page, product-data,
// discounts, modal-users): public calls answer for the seller of the site they are made on (the Host, or
// `?domain=` where the spec names it); registrations answer like POST /v1/login, signed in.
import { ZErrorResponse, ZIdParams } from '@stn/contracts/http';
import { translate } from '@stn/contracts/i18n';
import {
  ZBusinessOrderRequest,
  ZDiscountParams,
  ZDiscountQuery,
  ZDiscountResponse,
  ZFromProductRequest,
  ZModalChargeRequest,
  ZModalUserAnswer,
  ZModalUserList,
  ZModalUserListQuery,
  ZModalUserRequest,
  ZOrderHostQuery,
  ZOrderPageResponse,
  ZOrderPlansQuery,
  ZOrderPlansResponse,
  ZPopupOfferQuery,
  ZPopupOfferResponse,
  ZPopupScriptRequest,
  ZPopupScriptResponse,
  ZProductDataResponse,
  ZRegisterAgencyRequest,
  ZRegisterOrderBumpRequest,
  ZRegisterResponse,
  ZSlugParams,
} from '@stn/contracts/orders';
import { ZPackagePurchase } from '@stn/contracts/subscriptions';
import { z } from '@stn/contracts/zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Deps } from '../../platform/deps.ts';
import { clientOf } from '../../platform/http/client.ts';
import { linkHolderContext } from '../../platform/tenancy/context.ts';
import { ctxOf } from '../../platform/tenancy/request.ts';
import {
  buyOrderBump,
  chargeModalUser,
  createModalUser,
  discount,
  listModalUsers,
  orderPage,
  orderPlans,
  popupOffer,
  popupScript,
  productData,
  type Registration,
  registerAgency,
  registerBusiness,
  registerFromProduct,
} from './service.ts';

const tags = ['orders'];
const publicErrors = { 404: ZErrorResponse, 422: ZErrorResponse };
const pub = { access: 'public' } as const;

/** The host a public call is made on: `?domain=` when given, else the request's own. */
const hostOf = (request: FastifyRequest, named?: string) => named ?? request.host ?? request.hostname;

const signedIn = (request: FastifyRequest, r: Registration) => ({
  success: true as const,
  message: translate('orders.registered', request.lang),
  access_token: r.session.token,
  token_type: 'Bearer' as const,
  expires_at: r.session.expiresAt.toISOString(),
  role_group: r.session.roleGroup,
  data: r.state,
});

export const ordersRoutes: FastifyPluginAsyncZod<Deps> = async (app, deps) => {
  // Nobody is signed in on the order pages: the public calls act as the sign-up form (ADR 012).
  const anonymous = (request: FastifyRequest, name: string) =>
    linkHolderContext(deps, `orders.${name}`, clientOf(request));

  app.post(
    '/v1/register/agency',
    {
      config: pub,
      schema: {
        tags,
        summary:
          'A new agency from the order form (/register, /order, /trial on the main domain): made, subscribed, signed in',
        body: ZRegisterAgencyRequest,
        response: { 200: ZRegisterResponse, ...publicErrors },
      },
    },
    async (request) =>
      signedIn(
        request,
        await registerAgency(anonymous(request, 'register_agency'), {
          ...request.body,
          host: hostOf(request),
          client: clientOf(request),
        }),
      ),
  );

  app.post(
    '/v1/business/order',
    {
      config: pub,
      schema: {
        tags,
        summary:
          "A business signs up with the agency whose site this is: made, subscribed on the agency's Stripe, signed in",
        body: ZBusinessOrderRequest,
        response: { 200: ZRegisterResponse, ...publicErrors },
      },
    },
    async (request) =>
      signedIn(
        request,
        await registerBusiness(anonymous(request, 'business_order'), {
          ...request.body,
          host: hostOf(request),
          client: clientOf(request),
        }),
      ),
  );

  app.post(
    '/v1/register/from-product',
    {
      config: pub,
      schema: {
        tags,
        summary: "Buys the product /f/{slug} (its plan's buyer's order form: an agency's or a business's)",
        body: ZFromProductRequest,
        response: { 200: ZRegisterResponse, ...publicErrors },
      },
    },
    async (request) => {
      const { slug, ...body } = request.body;
      return signedIn(
        request,
        await registerFromProduct(anonymous(request, 'from_product'), {
          host: hostOf(request),
          slug,
          body,
          client: clientOf(request),
        }),
      );
    },
  );

  app.post(
    '/v1/register/order-bump',
    {
      config: { capability: 'subscriptions.manage' },
      schema: {
        tags,
        summary:
          "Right after registration, the new account buys one of its seller's order bumps with its card",
        body: ZRegisterOrderBumpRequest,
        response: {
          200: z.object({ success: z.literal(true), message: z.string(), data: ZPackagePurchase }),
          401: ZErrorResponse,
          403: ZErrorResponse,
          ...publicErrors,
        },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('orders.order_bump_bought', request.lang),
      data: await buyOrderBump(ctxOf(deps, request), { packageId: request.body.package_id }),
    }),
  );

  app.get(
    '/v1/order-page/plans',
    {
      config: pub,
      schema: {
        tags,
        summary: "The plans and order bumps the site's seller offers on its order pages",
        querystring: ZOrderPlansQuery,
        response: { 200: ZOrderPlansResponse, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await orderPlans(anonymous(request, 'plans'), {
        host: hostOf(request, request.query.domain),
        buyer: request.query.buyer,
      }),
    }),
  );

  app.get(
    '/v1/order-page/:id',
    {
      config: pub,
      schema: {
        tags,
        summary: "Order page data of plan {id} of the site's seller: the plan, the site, the order bumps",
        params: ZIdParams,
        querystring: ZOrderHostQuery,
        response: { 200: ZOrderPageResponse, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await orderPage(anonymous(request, 'order_page'), {
        host: hostOf(request, request.query.domain),
        planId: request.params.id,
      }),
    }),
  );

  app.get(
    '/v1/settings/product-data/:slug',
    {
      config: pub,
      schema: {
        tags,
        summary: "A product: the site seller's visible plan whose name's slug this is, with its order bumps",
        params: ZSlugParams,
        querystring: ZOrderHostQuery,
        response: { 200: ZProductDataResponse, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await productData(anonymous(request, 'product_data'), {
        host: hostOf(request, request.query.domain),
        slug: request.params.slug,
      }),
    }),
  );

  app.get(
    '/v1/discounts/:id',
    {
      config: pub,
      schema: {
        tags,
        summary: "A coupon or promotion code of the site's seller, with the plan's discounted price",
        params: ZDiscountParams,
        querystring: ZDiscountQuery,
        response: { 200: ZDiscountResponse, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await discount(anonymous(request, 'discount'), {
        host: hostOf(request, request.query.domain),
        code: request.params.id,
        ...(request.query.plan_id ? { planId: request.query.plan_id } : {}),
      }),
    }),
  );

  app.post(
    '/v1/agencies/modal-users',
    {
      config: pub,
      schema: {
        tags,
        summary: "A visitor of an agency's payment popup (the site in `domain`)",
        body: ZModalUserRequest,
        response: { 200: ZModalUserAnswer, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await createModalUser(anonymous(request, 'modal_user'), request.body),
    }),
  );

  app.get(
    '/v1/agencies/modal-users',
    {
      config: { capability: 'popup.manage' },
      schema: {
        tags,
        summary: "The agency's popup visitors, newest first (data, meta.total)",
        querystring: ZModalUserListQuery,
        response: { 200: ZModalUserList, 401: ZErrorResponse, 403: ZErrorResponse, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await listModalUsers(ctxOf(deps, request), request.query)),
    }),
  );

  app.post(
    '/v1/agencies/modal-users/charge',
    {
      config: pub,
      schema: {
        tags,
        summary:
          "The popup visitor pays the popup's plan: their business is made and subscribed on the agency's Stripe",
        body: ZModalChargeRequest,
        response: { 200: ZModalUserAnswer, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      message: translate('orders.charged', request.lang),
      data: await chargeModalUser(anonymous(request, 'modal_charge'), request.body),
    }),
  );

  app.get(
    '/v1/agencies/popup-offer',
    {
      config: pub,
      schema: {
        tags,
        summary: "The payment popup's offer on the site (`domain`, else the Host): texts, the plan, the site",
        querystring: ZPopupOfferQuery,
        response: { 200: ZPopupOfferResponse, ...publicErrors },
      },
    },
    async (request) => {
      const { agencyId: _, ...offer } = await popupOffer(anonymous(request, 'popup_offer'), {
        host: hostOf(request, request.query.domain),
      });
      return { success: true as const, data: offer };
    },
  );

  app.post(
    '/v1/agencies/popup-script',
    {
      config: { capability: 'popup.manage' },
      schema: {
        tags,
        summary: 'The script an agency puts on its own websites: its popup, from its white-label site',
        body: ZPopupScriptRequest,
        response: { 200: ZPopupScriptResponse, 401: ZErrorResponse, 403: ZErrorResponse, ...publicErrors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await popupScript(ctxOf(deps, request), { agencyId: request.body?.agency_id }),
    }),
  );
};
