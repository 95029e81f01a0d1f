// The demo's billing (issue 22, ADR 076): Acme takes cards on a Stripe sandbox account of its own and sells
// three plans and two packages to its businesses; the platform (the main agency) sells two agency plans
// with a trial and an installs order bump; "Sunny Plumbing", a business of Acme that is not free, is held on
// Subscriptions until it subscribes. Coupons live on Stripe: SPRING20 (20% off) on both accounts, made once
// the app (and its Stripe sandbox) is up.
import { savePlan } from './modules/billing/service.ts';
import { packages } from './modules/billing/tables.ts';
import { PLATFORM_SANDBOX_KEYS } from './modules/subscriptions/sellers.ts';
import type { Deps } from './platform/deps.ts';
import type { Ctx } from './platform/tenancy/context.ts';

/** Acme's sandbox keys: fixed, so the demo's Stripe objects stay Acme's across restarts. */
export const ACME_STRIPE = {
  publicKey: 'pk_test_sandbox_acmedemo',
  secretKey: 'sk_test_sandbox_acmedemo',
};
export const DEMO_COUPON = 'SPRING20';

const plan = (
  ctx: Ctx,
  agencyId: number,
  p: {
    name: string;
    price: number;
    interval?: 'month' | 'year';
    type?: 'agency' | 'business';
    trial?: number;
    features?: object;
  },
) =>
  savePlan(ctx, {
    agencyId,
    plan: {
      name: p.name,
      interval: p.interval ?? 'month',
      price_cents: p.price,
      trial_days: p.trial ?? 0,
      type: p.type ?? 'business',
      active: true,
      features: {
        Default: false,
        Visible: true,
        RemoveBranding: false,
        Zapier: false,
        Department: false,
        AiIntegration: false,
        Users: 1,
        Installs: 1,
        Automations: 2,
        Messages: 200,
        Calls: 20,
        Description: '',
        ...p.features,
      },
    },
  });

/** Plans and packages of Acme (for its businesses) and of the main agency (for agencies). */
export async function seedDemoBilling(ctx: Ctx, input: { mainId: number; acmeId: number }) {
  const { mainId, acmeId } = input;
  await plan(ctx, acmeId, {
    name: 'Starter',
    price: 2900,
    trial: 14,
    features: { Messages: 500, Calls: 100, Users: 2, Installs: 1, Description: 'For one location.' },
  });
  await plan(ctx, acmeId, {
    name: 'Pro',
    price: 7900,
    features: { Messages: 2000, Calls: 400, Users: 5, Installs: 3, Automations: 10, Department: true },
  });
  await plan(ctx, acmeId, {
    name: 'Pro Yearly',
    price: 79000,
    interval: 'year',
    features: { Messages: 2000, Calls: 400, Users: 5, Installs: 3, Automations: 10, Department: true },
  });
  await plan(ctx, acmeId, {
    name: 'Unlimited',
    price: 19900,
    features: {
      Messages: 0,
      Calls: 0,
      Users: 20,
      Installs: 10,
      Automations: 50,
      Department: true,
      AiIntegration: true,
    },
  });
  await plan(ctx, mainId, {
    name: 'Agency Starter',
    price: 9700,
    type: 'agency',
    trial: 14,
    features: { Installs: 10, Description: 'Resell to your first ten businesses.' },
  });
  await plan(ctx, mainId, {
    name: 'Agency Pro',
    price: 29700,
    type: 'agency',
    features: { Installs: 50, Zapier: true, Department: true, RemoveBranding: true },
  });
  // Businesses that sign up on the main domain (/business/register) buy from the platform.
  await plan(ctx, mainId, {
    name: 'Direct Starter',
    price: 3900,
    trial: 7,
    features: { Messages: 500, Calls: 100, Users: 2, Description: 'Straight from the platform.' },
  });
  await ctx.db.insert(packages).values([
    { agency_id: acmeId, name: '1,000 texts', kind: 'messages', quantity: 1000, price_cents: 1500 },
    {
      agency_id: acmeId,
      name: '100 calls',
      kind: 'calls',
      quantity: 100,
      price_cents: 1000,
      order_bump: true,
    },
    {
      agency_id: mainId,
      name: '10 more installs',
      kind: 'installs',
      quantity: 10,
      price_cents: 4900,
      order_bump: true,
    },
  ]);
}

/** The demo coupon on the platform's and Acme's sandbox accounts (once; the app's start step). */
export async function ensureDemoCoupons(deps: Deps): Promise<void> {
  if (!deps.config.demoData || !deps.payments.sandbox) return;
  try {
    await makeDemoCoupons(deps);
  } catch (err) {
    // A demo nicety: the platform starts without it.
    deps.log.warn({ err }, 'demo coupons: not made');
  }
}

async function makeDemoCoupons(deps: Deps): Promise<void> {
  const keys = [ACME_STRIPE.secretKey, ...(deps.config.stripe ? [] : [PLATFORM_SANDBOX_KEYS.secretKey])];
  for (const key of keys) {
    const stripe = await deps.payments.client(key);
    const exists = await stripe.coupons.retrieve(DEMO_COUPON).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await stripe.coupons.create({
      id: DEMO_COUPON,
      percent_off: 20,
      duration: 'forever',
      name: 'Spring 20% off',
    });
    await stripe.promotionCodes.create({
      code: DEMO_COUPON,
      promotion: { type: 'coupon', coupon: DEMO_COUPON },
    });
  }
}
