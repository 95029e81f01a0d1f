import { type CardDetails, checkRawCard, setupDecline } from './cards.ts';
import { invalidRequest, missingParam, noSuch, StripeApiError } from './errors.ts';
import { bool, int, list, metadata, num, obj, type Params, str } from './form.ts';
import {
  attach,
  cardPaymentMethod,
  chargeOutcome,
  customerPaymentMethod,
  resolvePaymentMethod,
} from './methods.ts';
import { type AccountCtx, changed, newId, page, randomAlnum, render, type StripeObject } from './store.ts';

// The plain resources: customers, payment methods, setup intents, products, prices, coupons, promotion
// codes, payment intents, webhook endpoints and events. Subscriptions and invoices are in billing.ts.

export type Handler = (ctx: AccountCtx, p: Params, args: string[]) => Promise<unknown>;
export type Route = { method: 'GET' | 'POST' | 'DELETE'; path: RegExp; handler: Handler };

export const route = (method: Route['method'], path: string, handler: Handler): Route => ({
  method,
  path: new RegExp(`^${path.replace(/:\w+/g, '([^/]+)')}$`),
  handler,
});

const arg = (args: string[], i = 0) => decodeURIComponent(args[i] ?? '');

/** List `type` filtered by `keep`, paged. */
async function listOf(
  ctx: AccountCtx,
  type: string,
  p: Params,
  url: string,
  keep: (o: StripeObject) => boolean,
) {
  return page((await ctx.list(type)).filter(keep), p, url);
}

const deleted = (o: StripeObject) => ({ id: o.id, object: o.object, deleted: true });

// --- customers ---

async function createCustomer(ctx: AccountCtx, p: Params) {
  const c: StripeObject = {
    id: newId('cus'),
    object: 'customer',
    address: null,
    balance: 0,
    created: ctx.now(),
    currency: null,
    default_source: null,
    delinquent: false,
    description: str(p.description) ?? null,
    discount: null,
    email: str(p.email) ?? null,
    invoice_prefix: randomAlnum(8).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: metadata(p.metadata),
    name: str(p.name) ?? null,
    next_invoice_sequence: 1,
    phone: str(p.phone) ?? null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
  await ctx.put(c);
  await ctx.emit('customer.created', c);
  if (p.payment_method !== undefined)
    await attach(ctx, await resolvePaymentMethod(ctx, p.payment_method), c.id);
  const dpm = obj(p.invoice_settings)?.default_payment_method;
  if (str(dpm)) {
    const pm = await customerPaymentMethod(ctx, dpm, c.id, 'invoice_settings[default_payment_method]');
    const before = structuredClone(c);
    (c.invoice_settings as Params).default_payment_method = pm.id;
    await ctx.put(c);
    await ctx.emit('customer.updated', c, changed(before, c));
  }
  return c;
}

async function updateCustomer(ctx: AccountCtx, p: Params, args: string[]) {
  const c = await ctx.need('customer', arg(args));
  const before = structuredClone(c);
  for (const k of ['email', 'name', 'description', 'phone'] as const)
    if (p[k] !== undefined) c[k] = str(p[k]) ?? null;
  if (p.metadata !== undefined) c.metadata = metadata(p.metadata, c.metadata as Record<string, string>);
  if (p.payment_method !== undefined)
    await attach(ctx, await resolvePaymentMethod(ctx, p.payment_method), c.id);
  const settings = obj(p.invoice_settings);
  if (settings && settings.default_payment_method !== undefined) {
    const id = str(settings.default_payment_method);
    (c.invoice_settings as Params).default_payment_method = id
      ? (await customerPaymentMethod(ctx, id, c.id, 'invoice_settings[default_payment_method]')).id
      : null;
  }
  if (p.balance !== undefined) c.balance = int(p.balance, 'balance');
  await ctx.put(c);
  const diff = changed(before, c);
  if (Object.keys(diff).length > 0) await ctx.emit('customer.updated', c, diff);
  return c;
}

async function deleteCustomer(ctx: AccountCtx, _p: Params, args: string[]) {
  const c = await ctx.need('customer', arg(args));
  for (const s of await ctx.list('subscription')) {
    if (s.customer !== c.id || s.status === 'canceled' || s.status === 'incomplete_expired') continue;
    const before = structuredClone(s);
    Object.assign(s, { status: 'canceled', canceled_at: ctx.now(), ended_at: ctx.now() });
    await ctx.put(s);
    await ctx.emit('customer.subscription.deleted', s, changed(before, s));
  }
  await ctx.put({ ...deleted(c) });
  await ctx.emit('customer.deleted', c);
  return deleted(c);
}

// --- payment methods ---

function refuseRawCard(): never {
  throw invalidRequest(
    'Sending credit card numbers directly to the Stripe API is generally unsafe. To continue processing use Stripe.js, the Stripe mobile bindings, or Stripe Elements. (Stripe sandbox: use the sandbox card form or a test id such as pm_card_visa.)',
    'card',
    'unsafe_card_numbers',
  );
}

async function createPaymentMethod(ctx: AccountCtx, p: Params) {
  if (str(p.payment_method)) return resolvePaymentMethod(ctx, p.payment_method);
  refuseRawCard();
}

async function customerMethods(ctx: AccountCtx, customer: string, p: Params, url: string) {
  return listOf(
    ctx,
    'payment_method',
    p,
    url,
    (pm) => pm.customer === customer && (!str(p.type) || pm.type === p.type),
  );
}

async function detach(ctx: AccountCtx, _p: Params, args: string[]) {
  const pm = await ctx.need('payment_method', arg(args));
  const customerId = pm.customer as string | null;
  if (!customerId)
    throw invalidRequest(
      `The payment method ${pm.id} is not attached to a customer so detachment is impossible.`,
    );
  pm.customer = null;
  await ctx.put(pm);
  const c = await ctx.get(customerId);
  const settings = c?.invoice_settings as Params | undefined;
  if (c && settings?.default_payment_method === pm.id) {
    const before = structuredClone(c);
    settings.default_payment_method = null;
    await ctx.put(c);
    await ctx.emit('customer.updated', c, changed(before, c));
  }
  await ctx.emit('payment_method.detached', pm, { customer: customerId });
  return pm;
}

// --- setup intents ---

async function createSetupIntent(ctx: AccountCtx, p: Params) {
  if (str(p.customer)) await ctx.need('customer', p.customer, 'customer');
  const id = newId('seti');
  // This API version calls it allowed_payment_method_types (payment_method_types before).
  const asked = list(p.allowed_payment_method_types ?? p.payment_method_types).map(String);
  const methodTypes = asked.length > 0 ? asked : ['card'];
  const si: StripeObject = {
    id,
    object: 'setup_intent',
    allowed_payment_method_types: methodTypes,
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: `${id}_secret_${randomAlnum(24)}`,
    created: ctx.now(),
    customer: str(p.customer) ?? null,
    customer_account: null,
    description: str(p.description) ?? null,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    livemode: false,
    mandate: null,
    metadata: metadata(p.metadata),
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: methodTypes,
    single_use_mandate: null,
    status: 'requires_payment_method',
    usage: str(p.usage) ?? 'off_session',
  };
  await ctx.put(si);
  await ctx.emit('setup_intent.created', si);
  if (str(p.payment_method) && bool(p.confirm))
    return confirmSetupWith(ctx, si, await resolvePaymentMethod(ctx, p.payment_method));
  if (str(p.payment_method)) {
    si.payment_method = (await resolvePaymentMethod(ctx, p.payment_method)).id;
    si.status = 'requires_confirmation';
    await ctx.put(si);
  }
  return si;
}

const CONFIRMABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action'];

/** Confirms a setup intent with a payment method: declines, asks for authentication (3155) or succeeds. */
export async function confirmSetupWith(ctx: AccountCtx, si: StripeObject, pm: StripeObject) {
  if (!CONFIRMABLE.includes(si.status as string))
    throw invalidRequest(
      `You cannot confirm this SetupIntent because it has a status of ${si.status}.`,
      undefined,
      'setup_intent_unexpected_state',
    );
  const decline = setupDecline(pm._behaviour as never);
  if (decline) {
    Object.assign(si, {
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_setup_error: { ...decline.body, payment_method: render(pm) },
    });
    await ctx.put(si);
    await ctx.emit('setup_intent.setup_failed', si);
    decline.body.setup_intent = render(si);
    throw decline.kept();
  }
  if (pm._behaviour === 'authenticate' && !pm._authenticated) {
    Object.assign(si, {
      status: 'requires_action',
      payment_method: pm.id,
      last_setup_error: null,
      next_action: {
        type: 'use_stripe_sdk',
        use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: '', source: pm.id },
      },
    });
    await ctx.put(si);
    await ctx.emit('setup_intent.requires_action', si);
    return si;
  }
  return succeedSetup(ctx, si, pm);
}

async function succeedSetup(ctx: AccountCtx, si: StripeObject, pm: StripeObject) {
  pm._authenticated = true;
  await ctx.put(pm);
  if (si.customer) await attach(ctx, pm, si.customer as string);
  Object.assign(si, {
    status: 'succeeded',
    payment_method: pm.id,
    last_setup_error: null,
    next_action: null,
  });
  await ctx.put(si);
  await ctx.emit('setup_intent.succeeded', si);
  return si;
}

/** The browser's card form: confirms with a raw card (checked as Stripe.js would). */
export async function confirmSetupWithCard(ctx: AccountCtx, si: StripeObject, raw: Params) {
  let card: CardDetails;
  try {
    card = checkRawCard(
      {
        number: String(raw.number ?? ''),
        exp_month: Number(raw.exp_month),
        exp_year: Number(raw.exp_year),
        cvc: raw.cvc === undefined ? undefined : String(raw.cvc),
      },
      ctx.now(),
    );
  } catch (err) {
    if (err instanceof StripeApiError) err.body.setup_intent = render(si);
    throw err;
  }
  const pm = cardPaymentMethod(ctx, card);
  // A declined card is not kept: nothing is attached to anything.
  if (setupDecline(card.behaviour)) return confirmSetupWith(ctx, si, pm);
  await ctx.put(pm);
  return confirmSetupWith(ctx, si, pm);
}

/** The browser's 3-D Secure step of a setup intent in requires_action. */
export async function authenticateSetup(ctx: AccountCtx, si: StripeObject, outcome: string) {
  if (si.status !== 'requires_action')
    throw invalidRequest(
      `You cannot authenticate this SetupIntent because it has a status of ${si.status}.`,
      undefined,
      'setup_intent_unexpected_state',
    );
  const pm = await ctx.need('payment_method', si.payment_method, 'payment_method');
  if (outcome === 'complete') return succeedSetup(ctx, si, pm);
  Object.assign(si, {
    status: 'requires_payment_method',
    payment_method: null,
    next_action: null,
    last_setup_error: {
      type: 'invalid_request_error',
      code: 'setup_intent_authentication_failure',
      message:
        'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
      payment_method: render(pm),
    },
  });
  await ctx.put(si);
  await ctx.emit('setup_intent.setup_failed', si);
  return si;
}

async function confirmSetup(ctx: AccountCtx, p: Params, args: string[]) {
  const si = await ctx.need('setup_intent', arg(args));
  const pmId = str(p.payment_method) ?? (si.payment_method as string | null);
  if (!pmId)
    throw invalidRequest(
      'You cannot confirm this SetupIntent because it has no payment method. Pass `payment_method`.',
      'payment_method',
      'setup_intent_unexpected_state',
    );
  const pm = await resolvePaymentMethod(ctx, pmId);
  if (pm.customer && si.customer && pm.customer !== si.customer)
    throw invalidRequest('The payment method belongs to another customer.', 'payment_method');
  return confirmSetupWith(ctx, si, pm);
}

async function cancelSetup(ctx: AccountCtx, p: Params, args: string[]) {
  const si = await ctx.need('setup_intent', arg(args));
  if (si.status === 'succeeded')
    throw invalidRequest('You cannot cancel this SetupIntent because it has a status of succeeded.');
  Object.assign(si, { status: 'canceled', cancellation_reason: str(p.cancellation_reason) ?? null });
  await ctx.put(si);
  await ctx.emit('setup_intent.canceled', si);
  return si;
}

// --- products and prices ---

async function createProduct(ctx: AccountCtx, p: Params) {
  if (!str(p.name)) throw missingParam('name');
  const id = str(p.id) ?? newId('prod');
  if (await ctx.get(id)) throw invalidRequest(`Product already exists.`, 'id', 'resource_already_exists');
  const prod: StripeObject = {
    id,
    object: 'product',
    active: bool(p.active) ?? true,
    created: ctx.now(),
    default_price: null,
    description: str(p.description) ?? null,
    images: [],
    livemode: false,
    marketing_features: [],
    metadata: metadata(p.metadata),
    name: str(p.name),
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: ctx.now(),
    url: null,
  };
  await ctx.put(prod);
  await ctx.emit('product.created', prod);
  const dpd = obj(p.default_price_data);
  if (dpd) {
    const price = await createPrice(ctx, { ...dpd, product: prod.id });
    prod.default_price = price.id;
    await ctx.put(prod);
  }
  return prod;
}

async function updateProduct(ctx: AccountCtx, p: Params, args: string[]) {
  const prod = await ctx.need('product', arg(args));
  const before = structuredClone(prod);
  if (p.name !== undefined) prod.name = str(p.name) ?? prod.name;
  if (p.description !== undefined) prod.description = str(p.description) ?? null;
  if (p.active !== undefined) prod.active = bool(p.active);
  if (p.metadata !== undefined) prod.metadata = metadata(p.metadata, prod.metadata as Record<string, string>);
  if (p.default_price !== undefined) prod.default_price = str(p.default_price) ?? null;
  prod.updated = ctx.now();
  await ctx.put(prod);
  await ctx.emit('product.updated', prod, changed(before, prod));
  return prod;
}

async function createPrice(ctx: AccountCtx, p: Params) {
  const currency = str(p.currency)?.toLowerCase();
  if (!currency) throw missingParam('currency');
  let productId = str(p.product);
  const productData = obj(p.product_data);
  if (!productId && productData) productId = (await createProduct(ctx, productData)).id;
  if (!productId) throw missingParam('product');
  await ctx.need('product', productId, 'product');
  const unit = int(p.unit_amount, 'unit_amount') ?? num(p.unit_amount_decimal, 'unit_amount_decimal');
  if (unit === undefined) throw missingParam('unit_amount');
  const rec = obj(p.recurring);
  if (rec && !['day', 'week', 'month', 'year'].includes(String(rec.interval)))
    throw invalidRequest(
      'Invalid recurring[interval]: must be one of day, month, week, or year',
      'recurring[interval]',
    );
  const price: StripeObject = {
    id: newId('price'),
    object: 'price',
    active: bool(p.active) ?? true,
    billing_scheme: 'per_unit',
    created: ctx.now(),
    currency,
    custom_unit_amount: null,
    livemode: false,
    lookup_key: str(p.lookup_key) ?? null,
    metadata: metadata(p.metadata),
    nickname: str(p.nickname) ?? null,
    product: productId,
    recurring: rec
      ? {
          interval: rec.interval,
          interval_count: int(rec.interval_count, 'recurring[interval_count]') ?? 1,
          meter: null,
          trial_period_days: null,
          usage_type: 'licensed',
        }
      : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: rec ? 'recurring' : 'one_time',
    unit_amount: Math.round(unit),
    unit_amount_decimal: String(unit),
  };
  await ctx.put(price);
  await ctx.emit('price.created', price);
  return price;
}

async function updatePrice(ctx: AccountCtx, p: Params, args: string[]) {
  const price = await ctx.need('price', arg(args));
  const before = structuredClone(price);
  if (p.active !== undefined) price.active = bool(p.active);
  if (p.nickname !== undefined) price.nickname = str(p.nickname) ?? null;
  if (p.lookup_key !== undefined) price.lookup_key = str(p.lookup_key) ?? null;
  if (p.metadata !== undefined)
    price.metadata = metadata(p.metadata, price.metadata as Record<string, string>);
  await ctx.put(price);
  await ctx.emit('price.updated', price, changed(before, price));
  return price;
}

// --- coupons and promotion codes ---

async function createCoupon(ctx: AccountCtx, p: Params) {
  const percent = num(p.percent_off, 'percent_off');
  const amount = int(p.amount_off, 'amount_off');
  if (percent === undefined && amount === undefined)
    throw invalidRequest('You must pass either `percent_off` or `amount_off`.', 'percent_off');
  if (percent !== undefined && (percent <= 0 || percent > 100))
    throw invalidRequest('Invalid percent_off: must be between 0 and 100.', 'percent_off');
  if (amount !== undefined && !str(p.currency))
    throw invalidRequest('You must pass `currency` with `amount_off`.', 'currency');
  const duration = str(p.duration) ?? 'once';
  if (!['once', 'repeating', 'forever'].includes(duration))
    throw invalidRequest('Invalid duration: must be one of once, repeating, or forever', 'duration');
  const months = int(p.duration_in_months, 'duration_in_months');
  if (duration === 'repeating' && !months) throw missingParam('duration_in_months');
  const id = str(p.id) ?? randomAlnum(8);
  const existing = await ctx.get(id);
  if (existing && !existing.deleted)
    throw invalidRequest('Coupon already exists.', 'id', 'resource_already_exists');
  const coupon: StripeObject = {
    id,
    object: 'coupon',
    amount_off: amount ?? null,
    created: ctx.now(),
    currency: amount !== undefined ? String(p.currency).toLowerCase() : null,
    duration,
    duration_in_months: duration === 'repeating' ? (months ?? null) : null,
    livemode: false,
    max_redemptions: int(p.max_redemptions, 'max_redemptions') ?? null,
    metadata: metadata(p.metadata),
    name: str(p.name) ?? null,
    percent_off: percent ?? null,
    redeem_by: int(p.redeem_by, 'redeem_by') ?? null,
    times_redeemed: 0,
    valid: true,
  };
  await ctx.put(coupon);
  await ctx.emit('coupon.created', coupon);
  return coupon;
}

async function createPromotionCode(ctx: AccountCtx, p: Params) {
  const promotion = obj(p.promotion);
  const couponId = str(promotion?.coupon) ?? str(p.coupon);
  if (!couponId) throw missingParam('promotion[coupon]');
  await ctx.need('coupon', couponId, 'promotion[coupon]');
  const code = str(p.code) ?? randomAlnum(8).toUpperCase();
  const active = bool(p.active) ?? true;
  if (active) {
    const clash = (await ctx.list('promotion_code')).find(
      (pc) => pc.active && String(pc.code).toLowerCase() === code.toLowerCase(),
    );
    if (clash)
      throw invalidRequest(`An active promotion code with \`code: ${code}\` already exists.`, 'code');
  }
  const restrictions = obj(p.restrictions);
  const pc: StripeObject = {
    id: newId('promo'),
    object: 'promotion_code',
    active,
    code,
    created: ctx.now(),
    customer: str(p.customer) ?? null,
    customer_account: null,
    expires_at: int(p.expires_at, 'expires_at') ?? null,
    livemode: false,
    max_redemptions: int(p.max_redemptions, 'max_redemptions') ?? null,
    metadata: metadata(p.metadata),
    promotion: { coupon: couponId, type: 'coupon' },
    restrictions: {
      first_time_transaction: bool(restrictions?.first_time_transaction) ?? false,
      minimum_amount: int(restrictions?.minimum_amount, 'restrictions[minimum_amount]') ?? null,
      minimum_amount_currency: str(restrictions?.minimum_amount_currency) ?? null,
    },
    times_redeemed: 0,
  };
  await ctx.put(pc);
  await ctx.emit('promotion_code.created', pc);
  return pc;
}

async function updatePromotionCode(ctx: AccountCtx, p: Params, args: string[]) {
  const pc = await ctx.need('promotion_code', arg(args));
  const before = structuredClone(pc);
  if (p.active !== undefined) pc.active = bool(p.active);
  if (p.metadata !== undefined) pc.metadata = metadata(p.metadata, pc.metadata as Record<string, string>);
  await ctx.put(pc);
  await ctx.emit('promotion_code.updated', pc, changed(before, pc));
  return pc;
}

// --- payment intents ---

async function createPaymentIntent(ctx: AccountCtx, p: Params) {
  const amount = int(p.amount, 'amount');
  if (amount === undefined) throw missingParam('amount');
  if (amount < 50) throw invalidRequest('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
  const currency = str(p.currency)?.toLowerCase();
  if (!currency) throw missingParam('currency');
  const customer = str(p.customer) ?? null;
  if (customer) await ctx.need('customer', customer, 'customer');
  const id = newId('pi');
  const pi: StripeObject = {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: ['card'],
    amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic',
    client_secret: `${id}_secret_${randomAlnum(24)}`,
    confirmation_method: 'automatic',
    created: ctx.now(),
    currency,
    customer,
    customer_account: null,
    description: str(p.description) ?? null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    managed_payments: null,
    metadata: metadata(p.metadata),
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: str(p.receipt_email) ?? null,
    review: null,
    setup_future_usage: str(p.setup_future_usage) ?? null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
  if (str(p.payment_method)) {
    const pm = await resolvePaymentMethod(ctx, p.payment_method);
    pi.payment_method = pm.id;
    pi.status = 'requires_confirmation';
  }
  await ctx.put(pi);
  await ctx.emit('payment_intent.created', pi);
  if (bool(p.confirm)) return confirmPaymentIntent(ctx, pi, bool(p.off_session) ?? false);
  return pi;
}

/** Charges a payment intent's payment method: succeeded, or a 402 with the intent inside the error. */
export async function confirmPaymentIntent(ctx: AccountCtx, pi: StripeObject, offSession: boolean) {
  if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(pi.status as string))
    throw invalidRequest(
      `This PaymentIntent's status is ${pi.status}, so it cannot be confirmed.`,
      undefined,
      'payment_intent_unexpected_state',
    );
  if (!pi.payment_method)
    throw invalidRequest(
      "You cannot confirm this PaymentIntent because it's missing a payment method.",
      'payment_method',
      'payment_intent_unexpected_state',
    );
  const pm = await ctx.need('payment_method', pi.payment_method, 'payment_method');
  if (pm.customer && pi.customer !== pm.customer)
    throw invalidRequest(
      `The provided PaymentMethod ${pm.id} belongs to a customer other than the one on this PaymentIntent.`,
      'payment_method',
    );
  if (!pm.customer && pi.customer === null && offSession)
    throw invalidRequest('A customer is required to charge a payment method off session.', 'customer');
  if (pm._behaviour === 'authenticate' && !pm._authenticated && !offSession) {
    Object.assign(pi, {
      status: 'requires_action',
      next_action: {
        type: 'use_stripe_sdk',
        use_stripe_sdk: { type: 'three_d_secure_redirect', source: pm.id },
      },
    });
    await ctx.put(pi);
    await ctx.emit('payment_intent.requires_action', pi);
    return pi;
  }
  const decline = chargeOutcome(pm);
  if (decline) {
    Object.assign(pi, {
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_payment_error: { ...decline.body, payment_method: render(pm) },
      latest_charge: newId('ch'),
    });
    await ctx.put(pi);
    await ctx.emit('payment_intent.payment_failed', pi);
    decline.body.payment_intent = render(pi);
    throw decline.kept();
  }
  Object.assign(pi, {
    status: 'succeeded',
    amount_received: pi.amount,
    last_payment_error: null,
    next_action: null,
    latest_charge: newId('ch'),
  });
  await ctx.put(pi);
  await ctx.emit('payment_intent.succeeded', pi);
  return pi;
}

async function confirmPI(ctx: AccountCtx, p: Params, args: string[]) {
  const pi = await ctx.need('payment_intent', arg(args));
  if (str(p.payment_method)) pi.payment_method = (await resolvePaymentMethod(ctx, p.payment_method)).id;
  return confirmPaymentIntent(ctx, pi, bool(p.off_session) ?? false);
}

async function cancelPI(ctx: AccountCtx, p: Params, args: string[]) {
  const pi = await ctx.need('payment_intent', arg(args));
  if (pi.status === 'succeeded' || pi.status === 'canceled')
    throw invalidRequest(
      `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`,
      undefined,
      'payment_intent_unexpected_state',
    );
  Object.assign(pi, {
    status: 'canceled',
    canceled_at: ctx.now(),
    cancellation_reason: str(p.cancellation_reason) ?? null,
  });
  await ctx.put(pi);
  await ctx.emit('payment_intent.canceled', pi);
  return pi;
}

// --- webhook endpoints and events ---

async function createEndpoint(ctx: AccountCtx, p: Params) {
  if (!str(p.url)) throw missingParam('url');
  const events = list(p.enabled_events).map(String);
  if (events.length === 0) throw missingParam('enabled_events');
  const we: StripeObject = {
    id: newId('we'),
    object: 'webhook_endpoint',
    api_version: str(p.api_version) ?? null,
    application: null,
    created: ctx.now(),
    description: str(p.description) ?? null,
    enabled_events: events,
    livemode: false,
    metadata: metadata(p.metadata),
    status: 'enabled',
    url: str(p.url),
    _secret: `whsec_${randomAlnum(32)}`,
  };
  await ctx.put(we);
  return { ...we, secret: we._secret };
}

async function updateEndpoint(ctx: AccountCtx, p: Params, args: string[]) {
  const we = await ctx.need('webhook_endpoint', arg(args));
  if (str(p.url)) we.url = str(p.url);
  if (p.enabled_events !== undefined) we.enabled_events = list(p.enabled_events).map(String);
  if (p.disabled !== undefined) we.status = bool(p.disabled) ? 'disabled' : 'enabled';
  if (p.description !== undefined) we.description = str(p.description) ?? null;
  if (p.metadata !== undefined) we.metadata = metadata(p.metadata, we.metadata as Record<string, string>);
  return ctx.put(we);
}

const all = () => true;
const active = (p: Params) => (o: StripeObject) => p.active === undefined || o.active === bool(p.active);

export const resourceRoutes: Route[] = [
  route('POST', '/v1/customers', createCustomer),
  route('GET', '/v1/customers', (ctx, p) =>
    listOf(ctx, 'customer', p, '/v1/customers', (c) => !str(p.email) || c.email === p.email),
  ),
  route('GET', '/v1/customers/:id', async (ctx, _p, a) => {
    const c = await ctx.get(arg(a));
    if (c?.object !== 'customer') throw noSuch('customer', arg(a));
    return c;
  }),
  route('POST', '/v1/customers/:id', updateCustomer),
  route('DELETE', '/v1/customers/:id', deleteCustomer),
  route('GET', '/v1/customers/:id/payment_methods', async (ctx, p, a) => {
    const c = await ctx.need('customer', arg(a));
    return customerMethods(ctx, c.id, p, `/v1/customers/${c.id}/payment_methods`);
  }),
  route('GET', '/v1/customers/:id/payment_methods/:pm', async (ctx, _p, a) => {
    const pm = await ctx.need('payment_method', arg(a, 1));
    if (pm.customer !== arg(a)) throw noSuch('payment_method', arg(a, 1));
    return pm;
  }),

  route('POST', '/v1/payment_methods', createPaymentMethod),
  route('GET', '/v1/payment_methods', (ctx, p) =>
    str(p.customer)
      ? customerMethods(ctx, String(p.customer), p, '/v1/payment_methods')
      : listOf(ctx, 'payment_method', p, '/v1/payment_methods', (pm) => !str(p.type) || pm.type === p.type),
  ),
  route('GET', '/v1/payment_methods/:id', (ctx, _p, a) => resolvePaymentMethod(ctx, arg(a), 'id')),
  route('POST', '/v1/payment_methods/:id', async (ctx, p, a) => {
    const pm = await ctx.need('payment_method', arg(a));
    if (p.metadata !== undefined) pm.metadata = metadata(p.metadata, pm.metadata as Record<string, string>);
    await ctx.put(pm);
    await ctx.emit('payment_method.updated', pm);
    return pm;
  }),
  route('POST', '/v1/payment_methods/:id/attach', async (ctx, p, a) => {
    if (!str(p.customer)) throw missingParam('customer');
    const c = await ctx.need('customer', p.customer, 'customer');
    return attach(ctx, await resolvePaymentMethod(ctx, arg(a), 'payment_method'), c.id);
  }),
  route('POST', '/v1/payment_methods/:id/detach', detach),

  route('POST', '/v1/setup_intents', createSetupIntent),
  route('GET', '/v1/setup_intents', (ctx, p) =>
    listOf(ctx, 'setup_intent', p, '/v1/setup_intents', (s) => !str(p.customer) || s.customer === p.customer),
  ),
  route('GET', '/v1/setup_intents/:id', (ctx, _p, a) => ctx.need('setup_intent', arg(a))),
  route('POST', '/v1/setup_intents/:id', async (ctx, p, a) => {
    const si = await ctx.need('setup_intent', arg(a));
    if (p.metadata !== undefined) si.metadata = metadata(p.metadata, si.metadata as Record<string, string>);
    if (p.description !== undefined) si.description = str(p.description) ?? null;
    if (str(p.customer) && !si.customer)
      si.customer = (await ctx.need('customer', p.customer, 'customer')).id;
    return ctx.put(si);
  }),
  route('POST', '/v1/setup_intents/:id/confirm', confirmSetup),
  route('POST', '/v1/setup_intents/:id/cancel', cancelSetup),

  route('POST', '/v1/products', createProduct),
  route('GET', '/v1/products', (ctx, p) => listOf(ctx, 'product', p, '/v1/products', active(p))),
  route('GET', '/v1/products/:id', (ctx, _p, a) => ctx.need('product', arg(a))),
  route('POST', '/v1/products/:id', updateProduct),
  route('DELETE', '/v1/products/:id', async (ctx, _p, a) => {
    const prod = await ctx.need('product', arg(a));
    await ctx.put({ ...deleted(prod) });
    await ctx.emit('product.deleted', prod);
    return deleted(prod);
  }),

  route('POST', '/v1/prices', createPrice),
  route('GET', '/v1/prices', (ctx, p) =>
    listOf(
      ctx,
      'price',
      p,
      '/v1/prices',
      (pr) =>
        active(p)(pr) &&
        (!str(p.product) || pr.product === p.product) &&
        (!str(p.type) || pr.type === p.type) &&
        (!str(p.currency) || pr.currency === p.currency) &&
        (list(p.lookup_keys).length === 0 || list(p.lookup_keys).includes(pr.lookup_key)),
    ),
  ),
  route('GET', '/v1/prices/:id', (ctx, _p, a) => ctx.need('price', arg(a))),
  route('POST', '/v1/prices/:id', updatePrice),

  route('POST', '/v1/coupons', createCoupon),
  route('GET', '/v1/coupons', (ctx, p) => listOf(ctx, 'coupon', p, '/v1/coupons', all)),
  route('GET', '/v1/coupons/:id', (ctx, _p, a) => ctx.need('coupon', arg(a))),
  route('POST', '/v1/coupons/:id', async (ctx, p, a) => {
    const c = await ctx.need('coupon', arg(a));
    if (p.name !== undefined) c.name = str(p.name) ?? null;
    if (p.metadata !== undefined) c.metadata = metadata(p.metadata, c.metadata as Record<string, string>);
    await ctx.put(c);
    await ctx.emit('coupon.updated', c);
    return c;
  }),
  route('DELETE', '/v1/coupons/:id', async (ctx, _p, a) => {
    const c = await ctx.need('coupon', arg(a));
    // Kept (with `deleted`) so that discounts made from it still apply, as Stripe does.
    await ctx.put({ ...c, valid: false, deleted: true });
    await ctx.emit('coupon.deleted', c);
    return deleted(c);
  }),

  route('POST', '/v1/promotion_codes', createPromotionCode),
  route('GET', '/v1/promotion_codes', (ctx, p) =>
    listOf(
      ctx,
      'promotion_code',
      p,
      '/v1/promotion_codes',
      (pc) =>
        active(p)(pc) &&
        (!str(p.code) || String(pc.code).toLowerCase() === String(p.code).toLowerCase()) &&
        (!str(p.coupon) || (pc.promotion as Params).coupon === p.coupon) &&
        (!str(p.customer) || pc.customer === p.customer),
    ),
  ),
  route('GET', '/v1/promotion_codes/:id', (ctx, _p, a) => ctx.need('promotion_code', arg(a))),
  route('POST', '/v1/promotion_codes/:id', updatePromotionCode),

  route('POST', '/v1/payment_intents', createPaymentIntent),
  route('GET', '/v1/payment_intents', (ctx, p) =>
    listOf(
      ctx,
      'payment_intent',
      p,
      '/v1/payment_intents',
      (pi) => !str(p.customer) || pi.customer === p.customer,
    ),
  ),
  route('GET', '/v1/payment_intents/:id', (ctx, _p, a) => ctx.need('payment_intent', arg(a))),
  route('POST', '/v1/payment_intents/:id', async (ctx, p, a) => {
    const pi = await ctx.need('payment_intent', arg(a));
    if (p.metadata !== undefined) pi.metadata = metadata(p.metadata, pi.metadata as Record<string, string>);
    if (p.description !== undefined) pi.description = str(p.description) ?? null;
    if (str(p.payment_method)) {
      pi.payment_method = (await resolvePaymentMethod(ctx, p.payment_method)).id;
      if (pi.status === 'requires_payment_method') pi.status = 'requires_confirmation';
    }
    return ctx.put(pi);
  }),
  route('POST', '/v1/payment_intents/:id/confirm', confirmPI),
  route('POST', '/v1/payment_intents/:id/cancel', cancelPI),

  route('POST', '/v1/webhook_endpoints', createEndpoint),
  route('GET', '/v1/webhook_endpoints', (ctx, p) =>
    listOf(ctx, 'webhook_endpoint', p, '/v1/webhook_endpoints', all),
  ),
  route('GET', '/v1/webhook_endpoints/:id', (ctx, _p, a) => ctx.need('webhook_endpoint', arg(a))),
  route('POST', '/v1/webhook_endpoints/:id', updateEndpoint),
  route('DELETE', '/v1/webhook_endpoints/:id', async (ctx, _p, a) => {
    const we = await ctx.need('webhook_endpoint', arg(a));
    await ctx.put({ ...deleted(we) });
    return deleted(we);
  }),

  route('GET', '/v1/events', (ctx, p) =>
    listOf(ctx, 'event', p, '/v1/events', (e) => !str(p.type) || e.type === p.type),
  ),
  route('GET', '/v1/events/:id', (ctx, _p, a) => ctx.need('event', arg(a))),
];
