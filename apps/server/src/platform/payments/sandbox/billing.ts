import { invalidRequest, missingParam, type StripeApiError } from './errors.ts';
import { bool, int, list, metadata, obj, type Params, str } from './form.ts';
import { chargeOutcome, customerPaymentMethod, resolvePaymentMethod } from './methods.ts';
import { type Route, route } from './resources.ts';
import { type AccountCtx, changed, newId, page, type StripeObject } from './store.ts';

// The billing engine: subscriptions (trials, first invoice charged at once, plan changes with prorations,
// cancellation at period end), their invoices (discounts from coupons and promotion codes, the customer's
// credit balance) and the renewals the clock runs (clock.ts).

const DAY = 86_400;

type Line = {
  description: string;
  amount: number;
  period: { start: number; end: number };
  price: StripeObject;
  quantity: number;
  proration: boolean;
  item: string | null;
};

// --- periods ---

/** `anchor` plus `n` intervals of a price's recurring (months clamp to the month's last day, as Stripe). */
export function addIntervals(anchor: number, recurring: Params, n: number): number {
  const count = Number(recurring.interval_count ?? 1) * n;
  const d = new Date(anchor * 1000);
  switch (recurring.interval) {
    case 'day':
      return anchor + count * DAY;
    case 'week':
      return anchor + count * 7 * DAY;
    case 'year':
      return addMonths(d, 12 * count);
    default:
      return addMonths(d, count);
  }
}

function addMonths(d: Date, months: number): number {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Math.floor(Date.UTC(y, m, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
}

const recurringOf = (sub: StripeObject) => (firstItem(sub).price as StripeObject).recurring as Params;
const itemsOf = (sub: StripeObject) => (sub.items as { data: StripeObject[] }).data;
const firstItem = (sub: StripeObject) => itemsOf(sub)[0] as StripeObject;

/** Sets the subscription's current period (kept on its items, as the API version has it). */
function setPeriod(sub: StripeObject, start: number, end: number) {
  sub._period_start = start;
  sub._period_end = end;
  for (const it of itemsOf(sub)) {
    it.current_period_start = start;
    it.current_period_end = end;
  }
}

function planOf(price: StripeObject): StripeObject {
  const rec = price.recurring as Params;
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: rec.interval,
    interval_count: rec.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

function subscriptionItem(
  ctx: AccountCtx,
  sub: StripeObject,
  price: StripeObject,
  quantity: number,
): StripeObject {
  return {
    id: newId('si'),
    object: 'subscription_item',
    billing_thresholds: null,
    created: ctx.now(),
    current_period_end: sub._period_end,
    current_period_start: sub._period_start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(price),
    price,
    quantity,
    subscription: sub.id,
    tax_rates: [],
  };
}

async function recurringPrice(ctx: AccountCtx, id: unknown, param: string): Promise<StripeObject> {
  const price = await ctx.need('price', id, param);
  if (!price.recurring)
    throw invalidRequest(
      'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.',
      param,
    );
  if (!price.active)
    throw invalidRequest('The price specified is inactive. This field only accepts active prices.', param);
  return price;
}

async function productName(ctx: AccountCtx, price: StripeObject): Promise<string> {
  const prod = await ctx.get(price.product as string);
  return (prod?.name as string | undefined) ?? String(price.product);
}

const money = (amount: number, currency: string) =>
  `${currency === 'usd' ? '$' : `${currency.toUpperCase()} `}${(amount / 100).toFixed(2)}`;

const day = (sec: number) =>
  new Date(sec * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** The full-period lines of a subscription's items. */
async function periodLines(ctx: AccountCtx, sub: StripeObject, start: number, end: number): Promise<Line[]> {
  const lines: Line[] = [];
  for (const it of itemsOf(sub)) {
    const price = it.price as StripeObject;
    const q = Number(it.quantity ?? 1);
    const rec = price.recurring as Params;
    lines.push({
      description: `${q} × ${await productName(ctx, price)} (at ${money(Number(price.unit_amount), String(price.currency))} / ${rec.interval})`,
      amount: Number(price.unit_amount) * q,
      period: { start, end },
      price,
      quantity: q,
      proration: false,
      item: it.id,
    });
  }
  return lines;
}

// --- discounts ---

/** Discount objects for `discounts: [{coupon} | {promotion_code}]` of a subscription. */
async function makeDiscounts(ctx: AccountCtx, raw: unknown, sub: StripeObject): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, d] of list(raw).entries()) {
    const entry = obj(d) ?? {};
    let couponId = str(entry.coupon);
    let promoId: string | null = null;
    if (str(entry.promotion_code)) {
      const pc = await ctx.need('promotion_code', entry.promotion_code, `discounts[${i}][promotion_code]`);
      if (!pc.active || (pc.expires_at && Number(pc.expires_at) <= ctx.now()))
        throw invalidRequest(`This promotion code is not active.`, `discounts[${i}][promotion_code]`);
      if (pc.max_redemptions !== null && Number(pc.times_redeemed) >= Number(pc.max_redemptions))
        throw invalidRequest('This promotion code has been redeemed the maximum number of times.');
      if (pc.customer && pc.customer !== sub.customer)
        throw invalidRequest('This promotion code cannot be redeemed by this customer.');
      pc.times_redeemed = Number(pc.times_redeemed) + 1;
      await ctx.put(pc);
      promoId = pc.id;
      couponId = (pc.promotion as Params).coupon as string;
    }
    if (!couponId) continue;
    const coupon = await ctx.need('coupon', couponId, `discounts[${i}][coupon]`);
    if (!coupon.valid)
      throw invalidRequest(`Coupon ${coupon.id} is no longer valid.`, `discounts[${i}][coupon]`);
    coupon.times_redeemed = Number(coupon.times_redeemed) + 1;
    await ctx.put(coupon);
    const start = ctx.now();
    const discount: StripeObject = {
      id: newId('di'),
      object: 'discount',
      checkout_session: null,
      customer: sub.customer,
      customer_account: null,
      end:
        coupon.duration === 'repeating'
          ? addIntervals(start, { interval: 'month' }, Number(coupon.duration_in_months))
          : null,
      invoice: null,
      invoice_item: null,
      promotion_code: promoId,
      source: { coupon: coupon.id, type: 'coupon' },
      start,
      subscription: sub.id,
      subscription_item: null,
      _duration: coupon.duration,
    };
    await ctx.put(discount);
    ids.push(discount.id);
  }
  return ids;
}

/** Applies the subscription's discounts to a subtotal: the amounts taken off, per discount. */
async function applyDiscounts(ctx: AccountCtx, sub: StripeObject, subtotal: number, currency: string) {
  const amounts: { amount: number; discount: string }[] = [];
  if (subtotal <= 0) return amounts;
  let left = subtotal;
  const keep: string[] = [];
  for (const id of (sub.discounts as string[]) ?? []) {
    const d = await ctx.get(id);
    if (!d) continue;
    if (d.end !== null && Number(d.end) <= ctx.now()) continue; // a repeating coupon that ran out
    const coupon = await ctx.get((d.source as Params).coupon as string);
    if (!coupon) continue;
    let off = 0;
    if (coupon.percent_off !== null) off = Math.round((left * Number(coupon.percent_off)) / 100);
    else if (coupon.amount_off !== null && coupon.currency === currency)
      off = Math.min(left, Number(coupon.amount_off));
    left -= off;
    amounts.push({ amount: off, discount: d.id });
    // A `once` coupon applies to the first invoice with something to pay, then leaves the subscription.
    if (d._duration !== 'once') keep.push(id);
  }
  sub.discounts = keep;
  return amounts;
}

// --- invoices ---

async function nextNumber(ctx: AccountCtx): Promise<string> {
  const n = (await ctx.list('invoice')).filter((i) => i.number).length + 1;
  return `SBX-${String(n).padStart(4, '0')}`;
}

/**
 * Makes, finalizes and (when nothing is due) pays an invoice of a subscription: invoice.created,
 * invoice.finalized (and invoice.paid/payment_succeeded for a $0 invoice). The charge is `collect`'s.
 */
async function issueInvoice(
  ctx: AccountCtx,
  sub: StripeObject,
  lines: Line[],
  reason: string,
): Promise<StripeObject> {
  const customer = await ctx.need('customer', sub.customer, 'customer');
  const currency = String(sub.currency);
  const id = newId('in');
  const subtotal = lines.reduce((s, l) => s + l.amount, 0);
  const discountAmounts = await applyDiscounts(ctx, sub, subtotal, currency);
  const discounted = discountAmounts.reduce((s, d) => s + d.amount, 0);
  const total = subtotal - discounted;
  // The customer's balance: a credit (negative) pays part of the invoice; a negative total adds credit.
  const starting = Number(customer.balance ?? 0);
  let amountDue = total;
  let ending = starting;
  if (total < 0) {
    amountDue = 0;
    ending = starting + total;
  } else if (starting < 0) {
    const applied = Math.min(total, -starting);
    amountDue = total - applied;
    ending = starting + applied;
  } else if (starting > 0) {
    amountDue = total + starting;
    ending = 0;
  }
  if (ending !== starting) {
    customer.balance = ending;
    await ctx.put(customer);
  }
  const now = ctx.now();
  const start = Math.min(...lines.map((l) => l.period.start), now);
  const end = Math.max(...lines.map((l) => l.period.end), now);
  const inv: StripeObject = {
    id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Stripe sandbox',
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: reason,
    collection_method: 'charge_automatically',
    created: now,
    currency,
    custom_fields: null,
    customer: customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: discountAmounts.map((d) => d.discount),
    due_date: null,
    effective_at: null,
    ending_balance: ending,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: {
      object: 'list',
      data: lines.map((l) => ({
        id: newId('il'),
        object: 'line_item',
        amount: l.amount,
        currency,
        description: l.description,
        discount_amounts: [],
        discountable: true,
        discounts: [],
        invoice: id,
        livemode: false,
        metadata: {},
        parent: {
          invoice_item_details: null,
          subscription_item_details: {
            invoice_item: null,
            proration: l.proration,
            proration_details: { credited_items: null },
            subscription: sub.id,
            subscription_item: l.item,
          },
          type: 'subscription_item_details',
        },
        period: l.period,
        pretax_credit_amounts: [],
        pricing: {
          price_details: { price: l.price.id, product: l.price.product },
          type: 'price_details',
          unit_amount_decimal: String(l.price.unit_amount_decimal),
        },
        quantity: l.quantity,
        subtotal: l.amount,
        taxes: [],
      })),
      has_more: false,
      total_count: lines.length,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: null,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: sub.metadata, subscription: sub.id },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: end,
    period_start: start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: starting,
    statement_descriptor: null,
    status: 'draft',
    status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
    subtotal,
    subtotal_excluding_tax: subtotal,
    test_clock: null,
    total,
    total_discount_amounts: discountAmounts,
    total_excluding_tax: total,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: now,
  };
  await ctx.put(inv);
  await ctx.emit('invoice.created', inv);
  Object.assign(inv, { status: 'open', number: await nextNumber(ctx), effective_at: now });
  (inv.status_transitions as Params).finalized_at = now;
  await ctx.put(inv);
  await ctx.emit('invoice.finalized', inv);
  if (amountDue === 0) await markPaid(ctx, inv, 0);
  sub.latest_invoice = inv.id;
  return inv;
}

async function markPaid(ctx: AccountCtx, inv: StripeObject, amount: number) {
  Object.assign(inv, { status: 'paid', amount_paid: amount, amount_remaining: 0 });
  (inv.status_transitions as Params).paid_at = ctx.now();
  await ctx.put(inv);
  await ctx.emit('invoice.paid', inv);
  await ctx.emit('invoice.payment_succeeded', inv);
}

/** The payment method an invoice is charged to: given, else the subscription's, else the customer's default. */
async function defaultPaymentMethod(ctx: AccountCtx, sub: StripeObject | null, customerId: string) {
  const id =
    (sub?.default_payment_method as string | null) ??
    ((await ctx.get(customerId))?.invoice_settings as Params | undefined)?.default_payment_method;
  return typeof id === 'string' ? ctx.get(id) : null;
}

const noPaymentMethod = () =>
  invalidRequest(
    'This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.',
    undefined,
    'resource_missing',
  );

/**
 * Charges an open invoice: paid (invoice.paid, invoice.payment_succeeded) or attempt_count + 1 and
 * invoice.payment_failed. Returns the decline (null when paid).
 */
async function collect(
  ctx: AccountCtx,
  inv: StripeObject,
  pm: StripeObject | null,
): Promise<StripeApiError | null> {
  if (inv.status !== 'open') return null;
  const decline = pm ? chargeOutcome(pm) : noPaymentMethod();
  inv.attempt_count = Number(inv.attempt_count) + 1;
  inv.attempted = true;
  if (decline) {
    await ctx.put(inv);
    // As Stripe does, the attempt is a payment intent of the invoice that keeps the decline.
    const pi: StripeObject = {
      id: newId('pi'),
      object: 'payment_intent',
      amount: Number(inv.amount_due),
      amount_received: 0,
      created: ctx.now(),
      currency: inv.currency,
      customer: inv.customer,
      description: `Invoice ${String(inv.number ?? inv.id)}`,
      last_payment_error: { ...decline.body, payment_method: pm ? { id: pm.id } : null },
      livemode: false,
      metadata: { invoice: String(inv.id) },
      payment_method: pm?.id ?? null,
      status: 'requires_payment_method',
    };
    await ctx.put(pi);
    await ctx.emit('payment_intent.payment_failed', pi);
    await ctx.emit('invoice.payment_failed', inv);
    return decline;
  }
  await markPaid(ctx, inv, Number(inv.amount_due));
  return null;
}

// --- subscriptions ---

const LIVE = ['trialing', 'active', 'past_due', 'unpaid', 'incomplete', 'paused'];

function trialEndOf(ctx: AccountCtx, p: Params): number | null {
  if (p.trial_end === 'now') return null;
  const end = int(p.trial_end, 'trial_end');
  if (end !== undefined) {
    if (end <= ctx.now())
      throw invalidRequest(
        'Invalid timestamp: must be an integer Unix timestamp in the future.',
        'trial_end',
      );
    return end;
  }
  const days = int(p.trial_period_days, 'trial_period_days');
  return days ? ctx.now() + days * DAY : null;
}

async function createSubscription(ctx: AccountCtx, p: Params) {
  if (!str(p.customer)) throw missingParam('customer');
  const customer = await ctx.need('customer', p.customer, 'customer');
  const rawItems = list(p.items);
  if (rawItems.length === 0) throw missingParam('items');
  const behaviour = str(p.payment_behavior) ?? 'allow_incomplete';
  const now = ctx.now();
  const id = newId('sub');
  const sub: StripeObject = {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: now,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created: now,
    currency: '',
    customer: customer.id,
    customer_account: null,
    days_until_due: null,
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: str(p.description) ?? null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: {
      object: 'list',
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    livemode: false,
    managed_payments: null,
    metadata: metadata(p.metadata),
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: now,
    status: 'incomplete',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: null,
    _period_start: now,
    _period_end: now,
    _anchor: now,
    _cycles: 0,
    _pending: [],
  };
  for (const [i, raw] of rawItems.entries()) {
    const item = obj(raw) ?? {};
    const price = await recurringPrice(ctx, item.price, `items[${i}][price]`);
    if (sub.currency && sub.currency !== price.currency)
      throw invalidRequest('All prices on a subscription must have the same currency.', `items[${i}][price]`);
    sub.currency = price.currency;
    itemsOf(sub).push(subscriptionItem(ctx, sub, price, int(item.quantity, `items[${i}][quantity]`) ?? 1));
  }
  (sub.items as Params).total_count = itemsOf(sub).length;
  if (str(p.default_payment_method))
    sub.default_payment_method = (
      await customerPaymentMethod(ctx, p.default_payment_method, customer.id, 'default_payment_method')
    ).id;
  sub.discounts = await makeDiscounts(ctx, p.discounts, sub);
  const trialEnd = trialEndOf(ctx, p);
  const rec = recurringOf(sub);

  if (trialEnd) {
    Object.assign(sub, { status: 'trialing', trial_start: now, trial_end: trialEnd });
    setPeriod(sub, now, trialEnd);
    if (trialEnd - 3 * DAY > now) sub._trial_will_end_at = trialEnd - 3 * DAY;
    await ctx.put(sub);
    await ctx.emit('customer.subscription.created', sub);
    const lines: Line[] = [];
    for (const it of itemsOf(sub)) {
      const price = it.price as StripeObject;
      lines.push({
        description: `Trial period for ${await productName(ctx, price)}`,
        amount: 0,
        period: { start: now, end: trialEnd },
        price,
        quantity: Number(it.quantity),
        proration: false,
        item: it.id,
      });
    }
    await issueInvoice(ctx, sub, lines, 'subscription_create');
    return ctx.put(sub);
  }

  setPeriod(sub, now, addIntervals(now, rec, 1));
  const pm = await defaultPaymentMethod(ctx, sub, customer.id);
  const lines = await periodLines(ctx, sub, now, Number(sub._period_end));
  // error_if_incomplete: a failed charge throws, and the transaction leaves nothing behind.
  await ctx.put(sub);
  await ctx.emit('customer.subscription.created', sub);
  const inv = await issueInvoice(ctx, sub, lines, 'subscription_create');
  if (inv.status === 'open' && behaviour !== 'default_incomplete') {
    const decline = await collect(ctx, inv, pm);
    if (decline && behaviour === 'error_if_incomplete') throw decline;
  }
  if (inv.status === 'paid') await setStatus(ctx, sub, 'active');
  return ctx.put(sub);
}

/** Changes a subscription's status with customer.subscription.updated. */
async function setStatus(ctx: AccountCtx, sub: StripeObject, status: string) {
  if (sub.status === status) return;
  const before = structuredClone(sub);
  sub.status = status;
  await ctx.put(sub);
  await ctx.emit('customer.subscription.updated', sub, changed(before, sub));
}

/** Proration lines for replacing `oldPrice` by `newPrice` (either may be null) for the rest of the period. */
async function prorations(
  ctx: AccountCtx,
  sub: StripeObject,
  item: StripeObject,
  oldPrice: StripeObject | null,
  newPrice: StripeObject | null,
  oldQ: number,
  newQ: number,
): Promise<Line[]> {
  const now = ctx.now();
  const start = Number(sub._period_start);
  const end = Number(sub._period_end);
  if (end <= now || end <= start) return [];
  const fraction = (end - now) / (end - start);
  const lines: Line[] = [];
  if (oldPrice)
    lines.push({
      description: `Unused time on ${oldQ} × ${await productName(ctx, oldPrice)} after ${day(now)}`,
      amount: -Math.round(Number(oldPrice.unit_amount) * oldQ * fraction),
      period: { start: now, end },
      price: oldPrice,
      quantity: oldQ,
      proration: true,
      item: item.id,
    });
  if (newPrice)
    lines.push({
      description: `Remaining time on ${newQ} × ${await productName(ctx, newPrice)} after ${day(now)}`,
      amount: Math.round(Number(newPrice.unit_amount) * newQ * fraction),
      period: { start: now, end },
      price: newPrice,
      quantity: newQ,
      proration: true,
      item: item.id,
    });
  return lines;
}

async function updateSubscription(ctx: AccountCtx, p: Params, args: string[]) {
  const sub = await ctx.need('subscription', decodeURIComponent(args[0] ?? ''));
  const before = structuredClone(sub);
  if (!LIVE.includes(sub.status as string)) {
    if (p.metadata !== undefined) sub.metadata = metadata(p.metadata, sub.metadata as Record<string, string>);
    if (Object.keys(p).some((k) => !['metadata', 'expand', 'cancellation_details'].includes(k)))
      throw invalidRequest(
        'A canceled subscription can only update its cancellation_details and metadata.',
        undefined,
        'resource_missing',
      );
    await ctx.put(sub);
    return sub;
  }
  const proration = str(p.proration_behavior) ?? 'create_prorations';
  const behaviour = str(p.payment_behavior) ?? 'allow_incomplete';
  const now = ctx.now();
  const trialing = sub.status === 'trialing';
  const oldInterval = JSON.stringify(recurringOf(sub));

  if (p.metadata !== undefined) sub.metadata = metadata(p.metadata, sub.metadata as Record<string, string>);
  if (p.description !== undefined) sub.description = str(p.description) ?? null;
  if (p.default_payment_method !== undefined)
    sub.default_payment_method = str(p.default_payment_method)
      ? (
          await customerPaymentMethod(
            ctx,
            p.default_payment_method,
            sub.customer as string,
            'default_payment_method',
          )
        ).id
      : null;
  if (p.discounts !== undefined)
    sub.discounts = p.discounts === '' ? [] : await makeDiscounts(ctx, p.discounts, sub);
  if (p.cancel_at_period_end !== undefined) {
    const cancel = bool(p.cancel_at_period_end) === true;
    sub.cancel_at_period_end = cancel;
    sub.cancel_at = cancel ? sub._period_end : null;
    sub.canceled_at = cancel ? now : null;
    sub.cancellation_details = {
      comment: str(obj(p.cancellation_details)?.comment) ?? null,
      feedback: str(obj(p.cancellation_details)?.feedback) ?? null,
      reason: cancel ? 'cancellation_requested' : null,
    };
  }

  // Items: change a price or quantity (id), add (no id), remove (deleted).
  const lines: Line[] = [];
  for (const [i, raw] of list(p.items).entries()) {
    const entry = obj(raw) ?? {};
    const items = itemsOf(sub);
    const id = str(entry.id);
    const existing = id ? items.find((it) => it.id === id) : undefined;
    if (id && !existing)
      throw invalidRequest(`No such subscription item: '${id}'`, `items[${i}][id]`, 'resource_missing');
    if (existing && bool(entry.deleted)) {
      items.splice(items.indexOf(existing), 1);
      if (!trialing)
        lines.push(
          ...(await prorations(
            ctx,
            sub,
            existing,
            existing.price as StripeObject,
            null,
            Number(existing.quantity),
            0,
          )),
        );
      continue;
    }
    const price = str(entry.price)
      ? await recurringPrice(ctx, entry.price, `items[${i}][price]`)
      : ((existing?.price as StripeObject | undefined) ?? null);
    if (!price) throw missingParam(`items[${i}][price]`);
    if (price.currency !== sub.currency)
      throw invalidRequest('All prices on a subscription must have the same currency.', `items[${i}][price]`);
    const q = int(entry.quantity, `items[${i}][quantity]`) ?? Number(existing?.quantity ?? 1);
    if (existing) {
      const oldPrice = existing.price as StripeObject;
      const oldQ = Number(existing.quantity);
      if (oldPrice.id === price.id && oldQ === q) continue;
      Object.assign(existing, { price, plan: planOf(price), quantity: q });
      if (!trialing) lines.push(...(await prorations(ctx, sub, existing, oldPrice, price, oldQ, q)));
    } else {
      const it = subscriptionItem(ctx, sub, price, q);
      items.push(it);
      if (!trialing) lines.push(...(await prorations(ctx, sub, it, null, price, 0, q)));
    }
  }
  if (itemsOf(sub).length === 0) throw invalidRequest('A subscription must have at least one item.', 'items');
  (sub.items as Params).total_count = itemsOf(sub).length;

  // What to invoice now: a new interval restarts the cycle; trial_end=now ends the trial; always_invoice.
  let invoiceNow: Line[] | null = null;
  const intervalChanged = JSON.stringify(recurringOf(sub)) !== oldInterval;
  let endTrial = false;
  if (trialing && p.trial_end === 'now') endTrial = true;
  else if (p.trial_end !== undefined && p.trial_end !== 'now') {
    const end = trialEndOf(ctx, { trial_end: p.trial_end });
    if (end) {
      Object.assign(sub, { status: 'trialing', trial_end: end, trial_start: sub.trial_start ?? now });
      setPeriod(sub, Number(sub._period_start), end);
    }
  }
  if (endTrial || (intervalChanged && !trialing)) {
    const credits = lines.filter((l) => l.amount < 0);
    setPeriod(sub, now, addIntervals(now, recurringOf(sub), 1));
    Object.assign(sub, { _anchor: now, _cycles: 0, billing_cycle_anchor: now });
    if (endTrial) Object.assign(sub, { trial_end: now });
    invoiceNow = [
      ...credits,
      ...(sub._pending as Line[]),
      ...(await periodLines(ctx, sub, now, Number(sub._period_end))),
    ];
    sub._pending = [];
    if (endTrial) await ctx.emit('customer.subscription.trial_will_end', sub);
  } else if (lines.length > 0 && proration === 'always_invoice') {
    invoiceNow = [...(sub._pending as Line[]), ...lines];
    sub._pending = [];
  } else if (lines.length > 0 && proration === 'create_prorations') {
    sub._pending = [...(sub._pending as Line[]), ...lines];
  }
  setPeriod(sub, Number(sub._period_start), Number(sub._period_end));

  if (invoiceNow) {
    const pm = await defaultPaymentMethod(ctx, sub, sub.customer as string);
    const inv = await issueInvoice(ctx, sub, invoiceNow, 'subscription_update');
    if (inv.status === 'open' && behaviour !== 'default_incomplete') {
      const decline = await collect(ctx, inv, pm);
      // error_if_incomplete: the update is refused and the transaction leaves nothing behind.
      if (decline && behaviour === 'error_if_incomplete') throw decline;
    }
    if (inv.status === 'paid') sub.status = 'active';
    else sub.status = sub.status === 'incomplete' ? 'incomplete' : 'past_due';
  }
  await ctx.put(sub);
  const diff = changed(before, sub);
  if (Object.keys(diff).length > 0) await ctx.emit('customer.subscription.updated', sub, diff);
  return sub;
}

/** Ends a subscription now (customer.subscription.deleted). */
export async function endSubscription(ctx: AccountCtx, sub: StripeObject, reason: string, at = ctx.now()) {
  const before = structuredClone(sub);
  Object.assign(sub, {
    status: 'canceled',
    ended_at: at,
    canceled_at: sub.canceled_at ?? at,
    cancel_at_period_end: sub.cancel_at_period_end,
    cancellation_details: { ...(sub.cancellation_details as Params), reason },
  });
  await ctx.put(sub);
  await ctx.emit('customer.subscription.deleted', sub, changed(before, sub));
  return sub;
}

async function cancelSubscription(ctx: AccountCtx, p: Params, args: string[]) {
  const sub = await ctx.need('subscription', decodeURIComponent(args[0] ?? ''));
  if (sub.status === 'canceled' || sub.status === 'incomplete_expired')
    throw invalidRequest(`No such subscription: '${sub.id}'`, 'id', 'resource_missing');
  const details = obj(p.cancellation_details);
  if (details)
    sub.cancellation_details = {
      comment: str(details.comment) ?? null,
      feedback: str(details.feedback) ?? null,
      reason: null,
    };
  return endSubscription(ctx, sub, 'cancellation_requested');
}

// --- what the clock runs (clock.ts) ---

/** When a subscription next needs the clock (unix seconds), and what for; null: nothing scheduled. */
export function nextDue(
  sub: StripeObject,
): { at: number; what: 'trial_will_end' | 'period_end' | 'expire' } | null {
  if (sub.status === 'incomplete') return { at: Number(sub.created) + 23 * 3600, what: 'expire' };
  if (!['trialing', 'active', 'past_due'].includes(sub.status as string)) return null;
  if (sub.status === 'trialing' && typeof sub._trial_will_end_at === 'number')
    return { at: sub._trial_will_end_at, what: 'trial_will_end' };
  return { at: Number(sub._period_end), what: 'period_end' };
}

/** Runs what is due for a subscription at the clock's current time. */
export async function runDue(
  ctx: AccountCtx,
  sub: StripeObject,
  what: 'trial_will_end' | 'period_end' | 'expire',
) {
  if (what === 'trial_will_end') {
    delete sub._trial_will_end_at;
    await ctx.put(sub);
    await ctx.emit('customer.subscription.trial_will_end', sub);
    return;
  }
  if (what === 'expire') {
    const before = structuredClone(sub);
    sub.status = 'incomplete_expired';
    sub.ended_at = ctx.now();
    const inv = sub.latest_invoice ? await ctx.get(sub.latest_invoice as string) : null;
    if (inv && inv.status === 'open') {
      inv.status = 'void';
      (inv.status_transitions as Params).voided_at = ctx.now();
      await ctx.put(inv);
      await ctx.emit('invoice.voided', inv);
    }
    await ctx.put(sub);
    await ctx.emit('customer.subscription.updated', sub, changed(before, sub));
    return;
  }
  if (sub.cancel_at_period_end) {
    await endSubscription(ctx, sub, 'cancellation_requested', Number(sub._period_end));
    return;
  }
  const before = structuredClone(sub);
  const start = Number(sub._period_end);
  const cycles = Number(sub._cycles) + 1;
  const anchor = sub.status === 'trialing' ? start : Number(sub._anchor);
  const rec = recurringOf(sub);
  const end = sub.status === 'trialing' ? addIntervals(start, rec, 1) : addIntervals(anchor, rec, cycles + 1);
  if (sub.status === 'trialing')
    Object.assign(sub, { _anchor: start, _cycles: 0, billing_cycle_anchor: start });
  else sub._cycles = cycles;
  setPeriod(sub, start, end);
  const lines = [...(sub._pending as Line[]), ...(await periodLines(ctx, sub, start, end))];
  sub._pending = [];
  const inv = await issueInvoice(ctx, sub, lines, 'subscription_cycle');
  const decline = await collect(ctx, inv, await defaultPaymentMethod(ctx, sub, sub.customer as string));
  sub.status = decline ? 'past_due' : 'active';
  await ctx.put(sub);
  await ctx.emit('customer.subscription.updated', sub, changed(before, sub));
}

// --- invoices API ---

async function payInvoice(ctx: AccountCtx, p: Params, args: string[]) {
  const inv = await ctx.need('invoice', decodeURIComponent(args[0] ?? ''));
  if (inv.status === 'paid')
    throw invalidRequest('Invoice is already paid', undefined, 'invoice_already_paid');
  if (inv.status !== 'open')
    throw invalidRequest(
      `You cannot pay an invoice with status ${inv.status}.`,
      undefined,
      'invoice_not_open',
    );
  const subId = (inv.parent as { subscription_details?: { subscription?: string } } | null)
    ?.subscription_details?.subscription;
  const sub = subId ? await ctx.get(subId) : null;
  if (bool(p.paid_out_of_band)) {
    await markPaid(ctx, inv, 0);
  } else {
    const pm = str(p.payment_method)
      ? await resolvePaymentMethod(ctx, p.payment_method)
      : await defaultPaymentMethod(ctx, sub, inv.customer as string);
    if (pm && !pm.customer) {
      pm.customer = inv.customer;
      await ctx.put(pm);
      await ctx.emit('payment_method.attached', pm);
    }
    const decline = await collect(ctx, inv, pm);
    if (decline) throw decline.kept();
  }
  if (sub && ['incomplete', 'past_due', 'unpaid'].includes(sub.status as string))
    await setStatus(ctx, sub, 'active');
  return inv;
}

async function voidInvoice(ctx: AccountCtx, _p: Params, args: string[]) {
  const inv = await ctx.need('invoice', decodeURIComponent(args[0] ?? ''));
  if (inv.status !== 'open')
    throw invalidRequest(`You can only void an open invoice (this one is ${inv.status}).`);
  inv.status = 'void';
  (inv.status_transitions as Params).voided_at = ctx.now();
  await ctx.put(inv);
  await ctx.emit('invoice.voided', inv);
  return inv;
}

const subscriptionOf = (inv: StripeObject) =>
  (inv.parent as { subscription_details?: { subscription?: string } } | null)?.subscription_details
    ?.subscription;

export const billingRoutes: Route[] = [
  route('POST', '/v1/subscriptions', createSubscription),
  route('GET', '/v1/subscriptions', async (ctx, p) => {
    const status = str(p.status);
    const price = str(p.price);
    const subs = (await ctx.list('subscription')).filter(
      (s) =>
        (!str(p.customer) || s.customer === p.customer) &&
        (status === 'all' ||
          (status ? s.status === status : s.status !== 'canceled' && s.status !== 'incomplete_expired')) &&
        (!price || itemsOf(s).some((it) => (it.price as StripeObject).id === price)),
    );
    return page(subs, p, '/v1/subscriptions');
  }),
  route('GET', '/v1/subscriptions/:id', (ctx, _p, a) =>
    ctx.need('subscription', decodeURIComponent(a[0] ?? '')),
  ),
  route('POST', '/v1/subscriptions/:id', updateSubscription),
  route('DELETE', '/v1/subscriptions/:id', cancelSubscription),
  route('GET', '/v1/subscription_items', async (ctx, p) => {
    const sub = await ctx.need('subscription', p.subscription, 'subscription');
    return page(itemsOf(sub), p, '/v1/subscription_items');
  }),

  route('GET', '/v1/invoices', async (ctx, p) => {
    const invs = (await ctx.list('invoice')).filter(
      (i) =>
        (!str(p.customer) || i.customer === p.customer) &&
        (!str(p.subscription) || subscriptionOf(i) === p.subscription) &&
        (!str(p.status) || i.status === p.status),
    );
    return page(invs, p, '/v1/invoices');
  }),
  route('GET', '/v1/invoices/:id', (ctx, _p, a) => ctx.need('invoice', decodeURIComponent(a[0] ?? ''))),
  route('GET', '/v1/invoices/:id/lines', async (ctx, p, a) => {
    const inv = await ctx.need('invoice', decodeURIComponent(a[0] ?? ''));
    return page((inv.lines as { data: StripeObject[] }).data, p, `/v1/invoices/${inv.id}/lines`);
  }),
  route('POST', '/v1/invoices/:id/pay', payInvoice),
  route('POST', '/v1/invoices/:id/void', voidInvoice),
  route('GET', '/v1/discounts/:id', (ctx, _p, a) => ctx.need('discount', decodeURIComponent(a[0] ?? ''))),
];
