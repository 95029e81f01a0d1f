import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { isSandboxKey } from '../../platform/payments/payments.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { agencyPaymentKeys, mainAgencyId } from '../agencies/service.ts';
import { stripeWebhooks } from './tables.ts';

// Sellers (ADR 076): the Stripe account an account pays. Agencies pay the platform (its keys from the
// environment, or the platform's sandbox account); a business pays its agency (the agency's keys), except
// the main agency's businesses, who pay the platform.

/** The platform's own sandbox account when no keys are set: a fixed pair, made on first use. */
export const PLATFORM_SANDBOX_KEYS = {
  secretKey: 'sk_test_sandbox_platform',
  publishableKey: 'pk_test_sandbox_platform',
};

export type Seller = {
  /** 'platform' or 'agency:<id>': the key of our rows. */
  key: string;
  /** The agency whose plans are sold: the main agency for the platform. */
  agencyId: number;
  secretKey: string;
  publishableKey: string;
  sandbox: boolean;
};

/** The events the platform listens to on every seller's account. */
export const WEBHOOK_EVENTS: Stripe.WebhookEndpointCreateParams.EnabledEvent[] = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.paid',
  'invoice.payment_failed',
  'payment_method.attached',
  'payment_method.detached',
];

function platformKeys(ctx: Ctx) {
  return ctx.deps.config.stripe ?? PLATFORM_SANDBOX_KEYS;
}

async function platformSeller(ctx: Ctx): Promise<Seller | null> {
  const mainId = await mainAgencyId(ctx);
  if (mainId === null) return null;
  const keys = platformKeys(ctx);
  return { key: 'platform', agencyId: mainId, ...keys, sandbox: isSandboxKey(keys.secretKey) };
}

/**
 * Who sells to an account: `buyer` 'agency' (agencyId is the buying agency) → the platform; 'business'
 * (agencyId is the business's agency) → that agency, or the platform for the main agency. Null when the
 * seller takes no cards (an agency without both keys).
 */
export async function sellerFor(
  ctx: Ctx,
  input: { buyer: 'agency' | 'business'; agencyId: number },
): Promise<Seller | null> {
  if (input.buyer === 'agency') return platformSeller(ctx);
  const agency = await agencyPaymentKeys(ctx, { agencyId: input.agencyId });
  if (!agency) return null;
  if (agency.isMain) return platformSeller(ctx);
  if (!agency.keys) return null;
  return {
    key: `agency:${input.agencyId}`,
    agencyId: input.agencyId,
    ...agency.keys,
    sandbox: isSandboxKey(agency.keys.secretKey),
  };
}

/** The seller behind a row's `stripe_account` key (webhooks name it in their URL). */
export async function sellerByKey(ctx: Ctx, key: string): Promise<Seller | null> {
  if (key === 'platform') return platformSeller(ctx);
  const m = /^agency:(\d+)$/.exec(key);
  if (!m) return null;
  const seller = await sellerFor(ctx, { buyer: 'business', agencyId: Number(m[1]) });
  return seller?.key === key ? seller : null;
}

/** The SDK for a seller; the seller's webhook endpoint is registered on first use. */
export async function stripeOf(ctx: Ctx, seller: Seller): Promise<Stripe> {
  const stripe = await ctx.deps.payments.client(seller.secretKey);
  await ensureWebhook(ctx, seller, stripe);
  return stripe;
}

const keyHash = (secretKey: string) => crypto.createHash('sha256').update(secretKey).digest('hex');

/** Our webhook URL for a seller. */
export function webhookUrl(ctx: Ctx, sellerKey: string): string {
  const path = sellerKey === 'platform' ? 'platform' : `agency/${sellerKey.slice('agency:'.length)}`;
  return new URL(`/webhooks/stripe/${path}`, ctx.deps.config.publicUrl).toString();
}

/** Registrations in flight, per database (tests run several apps in one process) and seller. */
const registering = new WeakMap<object, Map<string, Promise<void>>>();

/**
 * Registers our webhook endpoint on the seller's account once per key pair, keeping its signing secret
 * sealed (an agency only enters its two keys). Concurrent first calls share one registration.
 */
async function ensureWebhook(ctx: Ctx, seller: Seller, stripe: Stripe): Promise<void> {
  const hash = keyHash(seller.secretKey);
  const [row] = await ctx.deps.db
    .select({ key_hash: stripeWebhooks.key_hash })
    .from(stripeWebhooks)
    .where(eq(stripeWebhooks.stripe_account, seller.key));
  if (row?.key_hash === hash) return;
  let inFlight = registering.get(ctx.deps.db);
  if (!inFlight) {
    inFlight = new Map();
    registering.set(ctx.deps.db, inFlight);
  }
  const running = inFlight.get(seller.key);
  if (running) return running;
  const work = (async () => {
    const endpoint = await stripe.webhookEndpoints.create({
      url: webhookUrl(ctx, seller.key),
      enabled_events: WEBHOOK_EVENTS,
      description: 'Start Texting Now: subscriptions',
    });
    const values = {
      key_hash: hash,
      endpoint_id: endpoint.id,
      secret: ctx.deps.secrets.seal(endpoint.secret ?? ''),
      updated_at: new Date(),
    };
    await ctx.deps.db
      .insert(stripeWebhooks)
      .values({ stripe_account: seller.key, ...values })
      .onConflictDoUpdate({ target: stripeWebhooks.stripe_account, set: values });
  })().finally(() => inFlight.delete(seller.key));
  inFlight.set(seller.key, work);
  return work;
}

/** The signing secret of a seller's webhook endpoint; null before one is registered. */
export async function webhookSecret(ctx: Ctx, sellerKey: string): Promise<string | null> {
  const [row] = await ctx.deps.db
    .select({ secret: stripeWebhooks.secret })
    .from(stripeWebhooks)
    .where(eq(stripeWebhooks.stripe_account, sellerKey));
  return row ? ctx.deps.secrets.open(row.secret) : null;
}
