import { ZCouponInfo, ZPlanOffer, ZSubscriptionState } from './subscriptions.ts';
import { zPhone } from './users.ts';
import { withPasswordConfirmation, zCustomUrl, zEmail, zPassword, zSubdomain } from './validation.ts';
import { z } from './zod.ts';

// Order and registration (spec 000 §2 "Order and registration", §3 industry options; spec 001 §7
// register/*, business/order, order-page, product-data, discounts, modal-users). Issue 22, ADR 076.

const ok = z.literal(true);

/** Industry options of spec 000 §3, by their number. */
export const INDUSTRIES = {
  1: 'SaaS',
  2: 'eCommerce',
  3: 'Home Services',
  4: 'Mortgage Broker / Real Estate',
  5: 'Insurance',
  6: 'Health Clubs / Fitness',
  7: 'Other',
} as const;
export const INDUSTRY_IDS = [1, 2, 3, 4, 5, 6, 7] as const;

/** Who buys on an order page: an agency (main domain, the platform sells) or a business (an agency's site). */
export const BUYERS = ['agency', 'business'] as const;
export type TBuyer = (typeof BUYERS)[number];

const zName = () => z.string().trim().min(1).max(191);
/** An empty text field of the form is no answer. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalCount = () =>
  z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(10_000_000).optional());
const optionalText = (max: number) => z.preprocess(blankToUndefined, z.string().trim().max(max).optional());

/** What every order form asks for the card: the plan, the payment method a confirmed setup intent made, a coupon. */
const payment = {
  plan_id: z.coerce.number({ message: 'subscriptions.plan_required' }).int().positive(),
  paymentMethod: z
    .string({ message: 'subscriptions.card_required' })
    .trim()
    .min(1, { message: 'subscriptions.card_required' })
    .max(255),
  coupon: optionalText(191),
};

/** The account's owner, as every order form asks for it. */
const owner = {
  email: zEmail(),
  password: zPassword(),
  password_confirmation: z.string().max(200),
  full_name: zName(),
  phone: zPhone(),
};

/**
 * POST /v1/register/agency (/register, /order, /trial on the main domain): the order form of spec 000 §2
 * with the questionnaire, the plan and the card. `trial`: the /trial page (the plan's trial days, or 14).
 */
export const ZRegisterAgencyRequest = withPasswordConfirmation(
  z.object({
    ...owner,
    company_name: zName(),
    /** An optional custom white-label domain (acme-calls.com). */
    domain: z.preprocess(blankToUndefined, zCustomUrl().optional()),
    /** The white-label subdomain: <subdomain>.<main domain>. */
    subdomain: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), zSubdomain()),
    industry: z.coerce
      .number({ message: 'validation.required' })
      .int()
      .refine((v) => v >= 1 && v <= 7, { message: 'validation.in' }),
    businesses_count: optionalCount(),
    goals: optionalText(2000),
    people_count: optionalCount(),
    contacts_count: optionalCount(),
    departments: optionalText(500),
    trial: z.boolean().default(false),
    ...payment,
  }),
);
export type TRegisterAgencyRequest = z.infer<typeof ZRegisterAgencyRequest>;

/** POST /v1/business/order (/business/register, /b/register on an agency's site). */
export const ZBusinessOrderRequest = withPasswordConfirmation(
  z.object({ ...owner, business_name: zName(), ...payment }),
);
export type TBusinessOrderRequest = z.infer<typeof ZBusinessOrderRequest>;

/** POST /v1/register/from-product: the product's slug and the fields of the form its plan's buyer fills. */
export const ZFromProductRequest = z.looseObject({ slug: z.string().trim().min(1).max(191) });

/** The answer of a registration: signed in as the new account's owner (like POST /v1/login). */
export const ZRegisterResponse = z.object({
  success: ok,
  message: z.string().optional(),
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_at: z.string(),
  role_group: z.enum(['Admin', 'Agency', 'Business']),
  data: ZSubscriptionState,
});
export type TRegisterResponse = z.infer<typeof ZRegisterResponse>;

/** POST /v1/register/order-bump (signed in, right after registration). */
export const ZRegisterOrderBumpRequest = z.object({
  package_id: z.coerce.number({ message: 'subscriptions.package_required' }).int().positive(),
});

/** A package offered as a one-click extra on an order page. */
export const ZOrderBump = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.string(),
  quantity: z.number().int(),
  price_cents: z.number().int(),
});
export type TOrderBump = z.infer<typeof ZOrderBump>;

/** The site an order page is on, as the page shows it. */
export const ZOrderSite = z.object({
  title: z.string(),
  headerLogo: z.string().nullable(),
  supportEmail: z.string().nullable(),
  address: z.string().nullable(),
});

/** Order pages name the site's host in `?domain=` (the page's own host). */
export const ZOrderHostQuery = z.object({ domain: z.string().trim().min(1).max(253).optional() });
/** GET /v1/order-page/plans: on the main domain `buyer` business asks for the main agency's business plans. */
export const ZOrderPlansQuery = ZOrderHostQuery.extend({ buyer: z.enum(BUYERS).optional() });

/** GET /v1/order-page/plans: what the site's seller offers on its order pages. */
export const ZOrderPlans = z.object({
  buyer: z.enum(BUYERS),
  seller_name: z.string(),
  site: ZOrderSite,
  plans: z.array(ZPlanOffer),
  order_bumps: z.array(ZOrderBump),
});
export type TOrderPlans = z.infer<typeof ZOrderPlans>;
export const ZOrderPlansResponse = z.object({ success: ok, data: ZOrderPlans });

/** GET /v1/order-page/{id}: one plan's order page. */
export const ZOrderPage = z.object({
  buyer: z.enum(BUYERS),
  seller_name: z.string(),
  site: ZOrderSite,
  plan: ZPlanOffer,
  order_bumps: z.array(ZOrderBump),
});
export type TOrderPage = z.infer<typeof ZOrderPage>;
export const ZOrderPageResponse = z.object({ success: ok, data: ZOrderPage });

/** GET /v1/settings/product-data/{slug}: a product is a visible plan addressed by the slug of its name. */
export const ZProductData = ZOrderPage.extend({ slug: z.string() });
export type TProductData = z.infer<typeof ZProductData>;
export const ZProductDataResponse = z.object({ success: ok, data: ZProductData });
export const ZSlugParams = z.object({ slug: z.string().trim().min(1).max(191) });

/** GET /v1/discounts/{id}?domain=&plan_id=: {id} is the coupon or promotion code. */
export const ZDiscountParams = z.object({ id: z.string().trim().min(1).max(191) });
export const ZDiscountQuery = ZOrderHostQuery.extend({
  plan_id: z.coerce.number().int().positive().optional(),
});
export const ZDiscountResponse = z.object({ success: ok, data: ZCouponInfo });

/** The slug of a plan's name: lower case, runs of anything but letters and digits as one hyphen. */
export function productSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// ---------------------------------------------------------------- the agency's payment popup (spec 001)

export const MODAL_USER_STATUSES = ['new', 'paid', 'failed'] as const;

/** POST /v1/agencies/modal-users (public): a visitor of an agency's popup. */
export const ZModalUserRequest = z.object({
  email: zEmail(),
  full_name: zName(),
  business_name: zName(),
  phone: zPhone(),
  plan_id: z.coerce.number().int().positive().optional(),
  /** The host the popup is on (its agency). */
  domain: z.string().trim().min(1).max(253),
});
export type TModalUserRequest = z.infer<typeof ZModalUserRequest>;

export const ZModalUser = z.object({
  id: z.number().int(),
  email: z.string(),
  full_name: z.string(),
  business_name: z.string().nullable(),
  phone: z.string().nullable(),
  plan_id: z.number().int().nullable(),
  status: z.enum(MODAL_USER_STATUSES),
  business_id: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
});
export type TModalUser = z.infer<typeof ZModalUser>;
export const ZModalUserAnswer = z.object({ success: ok, message: z.string().optional(), data: ZModalUser });
export const ZModalUserList = z.object({
  success: ok,
  data: z.array(ZModalUser),
  meta: z.object({ total: z.number().int(), page: z.number().int(), perPage: z.number().int() }),
});
export const ZModalUserListQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(10),
  keyword: z.string().trim().max(200).optional(),
  status: z.enum(MODAL_USER_STATUSES).optional(),
  /** Platform admins name the agency. */
  agency_id: z.coerce.number().int().positive().optional(),
});
export type TModalUserListQuery = z.infer<typeof ZModalUserListQuery>;

/** POST /v1/agencies/modal-users/charge (public): pay the popup's plan for that visitor. */
export const ZModalChargeRequest = z.object({
  modal_user_id: z.coerce.number().int().positive(),
  paymentMethod: payment.paymentMethod,
  coupon: optionalText(191),
});
export type TModalChargeRequest = z.infer<typeof ZModalChargeRequest>;

/** GET /v1/agencies/popup-offer?domain= (public): the popup's offer on an agency's site. */
export const ZPopupOfferQuery = z.object({ domain: z.string().trim().min(1).max(253).optional() });
export const ZPopupOffer = z.object({
  enabled: z.boolean(),
  title: z.string(),
  description: z.string(),
  button_text: z.string(),
  /** The popup's plan; null while the popup is off or names no plan the agency still offers. */
  plan: ZPlanOffer.nullable(),
  site: z.object({ title: z.string(), headerLogo: z.string().nullable() }),
});
export type TPopupOffer = z.infer<typeof ZPopupOffer>;
export const ZPopupOfferResponse = z.object({ success: ok, data: ZPopupOffer });

/** POST /v1/agencies/popup-script: the snippet an agency pastes on its own websites. */
export const ZPopupScriptRequest = z
  .object({
    /** Platform admins name the agency. */
    agency_id: z.coerce.number().int().positive().optional(),
  })
  .optional();
export const ZPopupScriptResponse = z.object({ success: ok, data: z.object({ script: z.string() }) });
