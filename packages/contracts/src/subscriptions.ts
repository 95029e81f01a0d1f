import { PLAN_INTERVALS, ZPlanFeatures } from './businesses.ts';
import { z } from './zod.ts';

// Contracts of billing on Stripe (issue 22): what an account buys (spec 001 §7 "Subscriptions", business
// packages, agency popup payments) and what the screens show of it. Two levels of Stripe accounts: the
// platform's (agencies pay the platform; the plans it sells are the main agency's plans of type 'agency')
// and each agency's own (its businesses pay it; its plans of type 'business'). ADR 076.

const ok = z.literal(true);
const zId = () => z.coerce.number().int().positive();

/** A subscription's state as Stripe names it; `none` before the first one. */
export const SUBSCRIPTION_STATUSES = [
  'none',
  'incomplete',
  'trialing',
  'active',
  'past_due',
  'unpaid',
  'canceled',
] as const;
export type TSubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** The states that let an account in (spec §4 "active paid subscription"; a trial counts). */
export const PAID_UP_STATUSES: readonly TSubscriptionStatus[] = ['trialing', 'active'];

/** Who buys: an agency from the platform, or a business from its agency. Also the plan's type. */
export const PLAN_TYPES = ['agency', 'business'] as const;
export type TPlanType = (typeof PLAN_TYPES)[number];

/** A plan as a buyer sees it (price, period, what it gives). */
export const ZPlanOffer = z.object({
  id: z.number().int(),
  name: z.string(),
  interval: z.enum(PLAN_INTERVALS),
  price_cents: z.number().int(),
  currency: z.string(),
  trial_days: z.number().int(),
  features: ZPlanFeatures,
  /** Messages and Calls both 0 (no cap). */
  unlimited: z.boolean(),
});
export type TPlanOffer = z.infer<typeof ZPlanOffer>;
export const ZPlanOffersResponse = z.object({ success: ok, data: z.array(ZPlanOffer) });
export const ZPlanOfferResponse = z.object({ success: ok, data: ZPlanOffer });
/** GET /v1/subscriptions/type/{type}/plans: {type} is the billing period. */
export const ZPlansOfPeriodParams = z.object({ type: z.enum(PLAN_INTERVALS) });
/** GET /v1/subscriptions/plans/{name}?restrict=1: restrict=1 only finds a visible plan. */
export const ZPlanByNameParams = z.object({ name: z.string().trim().min(1).max(191) });
export const ZPlanByNameQuery = z.object({ restrict: z.enum(['0', '1']).optional() });

/** What a code takes off, and for how long. */
const ZDiscount = z.object({
  code: z.string(),
  name: z.string().nullable(),
  percent_off: z.number().nullable(),
  amount_off_cents: z.number().int().nullable(),
  duration: z.enum(['once', 'repeating', 'forever']),
  duration_in_months: z.number().int().nullable(),
});

/** A coupon as the order pages and the subscriptions screen show it. */
export const ZCouponInfo = ZDiscount.extend({
  /** The plan's price after the coupon, when a plan was named. */
  price_cents: z.number().int().nullable(),
  discounted_cents: z.number().int().nullable(),
});
export type TCouponInfo = z.infer<typeof ZCouponInfo>;
export const ZCouponInfoRequest = z.object({
  code: z.string().trim().min(1, { message: 'subscriptions.coupon_required' }).max(191),
  plan_id: z.number().int().positive().optional(),
  /** Order pages (no session): the site's host decides whose coupon it is. */
  domain: z.string().trim().max(253).optional(),
});
export const ZCouponInfoResponse = z.object({ success: ok, data: ZCouponInfo });
export const ZCouponApplyRequest = z.object({
  code: z.string().trim().min(1, { message: 'subscriptions.coupon_required' }).max(191),
});

/** A saved card. */
export const ZPaymentMethod = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  is_default: z.boolean(),
});
export type TPaymentMethod = z.infer<typeof ZPaymentMethod>;
export const ZPaymentMethodsResponse = z.object({ success: ok, data: z.array(ZPaymentMethod) });
/** POST /v1/subscriptions/payment-methods: the id of a payment method a confirmed setup intent made. */
export const ZAddPaymentMethodRequest = z.object({
  paymentMethod: z.string().trim().min(1, { message: 'subscriptions.card_required' }).max(255),
});
export const ZPaymentMethodParams = z.object({ id: z.string().trim().min(1).max(255) });

/**
 * GET /v1/subscriptions/secret and POST /v1/subscriptions/secret/{domain}: a setup intent's client secret
 * for the card form, with the publishable key of the Stripe account it belongs to. `sandbox`: the account
 * is the platform's Stripe sandbox, so the card form is the local one (same setup-intent flow).
 */
export const ZSetupSecret = z.object({
  client_secret: z.string(),
  publishable_key: z.string(),
  sandbox: z.boolean(),
});
export type TSetupSecret = z.infer<typeof ZSetupSecret>;
export const ZSetupSecretResponse = z.object({ success: ok, data: ZSetupSecret });
export const ZSecretDomainParams = z.object({ domain: z.string().trim().min(1).max(253) });

/** An invoice line of the subscriptions screen. */
export const ZInvoice = z.object({
  id: z.string(),
  number: z.string().nullable(),
  status: z.string(),
  amount_due_cents: z.number().int(),
  amount_paid_cents: z.number().int(),
  currency: z.string(),
  created: z.string(),
  description: z.string().nullable(),
  hosted_invoice_url: z.string().nullable(),
});
export type TInvoice = z.infer<typeof ZInvoice>;
export const ZInvoicesResponse = z.object({ success: ok, data: z.array(ZInvoice) });

/** The account's subscription as the Subscriptions screen and the held notice show it. */
export const ZSubscriptionState = z.object({
  status: z.enum(SUBSCRIPTION_STATUSES),
  plan: ZPlanOffer.nullable(),
  /** ISO times. */
  current_period_end: z.string().nullable(),
  trial_end: z.string().nullable(),
  cancel_at_period_end: z.boolean(),
  coupon: ZCouponInfo.nullable(),
  /** What went wrong with the last payment (Stripe's message), while it is not settled. */
  last_error: z.string().nullable(),
  /** Whether the account can buy here at all (the seller has card payments). */
  can_buy: z.boolean(),
  has_payment_method: z.boolean(),
});
export type TSubscriptionState = z.infer<typeof ZSubscriptionState>;
export const ZSubscriptionStateResponse = z.object({ success: ok, data: ZSubscriptionState });

/**
 * POST /v1/subscriptions/subscribe: subscribe (or change plan, prorated) the caller's account. A card
 * named here is attached first and made the default; without one the default card pays.
 */
export const ZSubscribeRequest = z.object({
  plan_id: z.number({ message: 'subscriptions.plan_required' }).int().positive(),
  paymentMethod: z.string().trim().min(1).max(255).optional(),
  coupon: z.string().trim().max(191).optional(),
});
export type TSubscribeRequest = z.infer<typeof ZSubscribeRequest>;
/** POST /v1/subscriptions/{id}/subscribe: {id} is the plan. */
export const ZSubscribePlanParams = z.object({ id: zId() });
export const ZSubscribePlanRequest = ZSubscribeRequest.omit({ plan_id: true });
/** POST /v1/subscriptions/{userId}/cancel and /resume: the account of that user (the caller's own, or one of the agency's businesses). */
export const ZSubscriptionUserParams = z.object({ userId: zId() });
export const ZUnlimitedPlanRequest = z.object({ planType: z.enum(PLAN_INTERVALS) });
/** POST /v1/subscriptions/order-bump: buy an order-bump package once. */
export const ZOrderBumpRequest = z.object({ package_id: z.number().int().positive() });
/** Answers of subscribe, cancel, resume: the new state and the caller's profile user (spec §4: replaces the stored user when it is the same). */
export const ZSubscriptionChangeResponse = z.object({
  success: ok,
  message: z.string().optional(),
  data: ZSubscriptionState,
  user: z.unknown(),
});

/** Business packages: POST /v1/businesses/purchase-package and POST /v1/business/{id}/add-package. */
export const ZPurchasePackageRequest = z.object({
  package_id: z.number({ message: 'subscriptions.package_required' }).int().positive(),
});
export const ZPackagePurchase = z.object({
  id: z.number().int(),
  package_id: z.number().int(),
  name: z.string(),
  kind: z.string(),
  quantity: z.number().int(),
  price_cents: z.number().int(),
  /** 'card' when the business paid, 'agency' when its agency added it. */
  source: z.enum(['card', 'agency']),
  created_at: z.string(),
});
export type TPackagePurchase = z.infer<typeof ZPackagePurchase>;

/**
 * An agency's coupons (ours, ADR 076): codes its buyers type, made on its own Stripe account (the platform's
 * for the main agency) as a coupon and a promotion code, so an agency on the Stripe sandbox, which has no
 * Stripe dashboard, can make them too.
 */
export const ZCoupon = ZDiscount.extend({
  active: z.boolean(),
  times_redeemed: z.number().int(),
  created: z.string(),
});
export type TCoupon = z.infer<typeof ZCoupon>;
export const ZCouponsResponse = z.object({ success: ok, data: z.array(ZCoupon) });
export const ZCouponRequest = z
  .object({
    code: z
      .string()
      .trim()
      .min(3, { message: 'subscriptions.coupon_code_format' })
      .max(40, { message: 'subscriptions.coupon_code_format' })
      .regex(/^[A-Za-z0-9_-]+$/, { message: 'subscriptions.coupon_code_format' }),
    name: z.string().trim().max(40).optional(),
    percent_off: z.number().min(1).max(100).optional(),
    amount_off_cents: z.number().int().min(1).max(100_000_000).optional(),
    duration: z.enum(['once', 'repeating', 'forever']).default('once'),
    duration_in_months: z.number().int().min(1).max(36).optional(),
  })
  .refine((v) => (v.percent_off === undefined) !== (v.amount_off_cents === undefined), {
    message: 'subscriptions.coupon_amount',
    path: ['percent_off'],
  })
  .refine((v) => v.duration !== 'repeating' || v.duration_in_months !== undefined, {
    message: 'subscriptions.coupon_months',
    path: ['duration_in_months'],
  });
export type TCouponRequest = z.infer<typeof ZCouponRequest>;
export const ZCouponParams = z.object({ code: z.string().trim().min(1).max(40) });
