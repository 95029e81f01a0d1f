import { and, count, eq, ne } from 'drizzle-orm';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { installStats } from './business-accounts.ts';
import { businesses } from './tables.ts';

// What other modules may ask of the businesses module. Its routes use the module's own files.

/** An agency's installs: its allowance, what its non-deleted businesses hold, and what is left. */
export async function agencyInstallStats(ctx: Pick<Ctx, 'db'>, input: { agencyId: number }) {
  return installStats(ctx.db, input.agencyId);
}

/** How many live (not deleted) businesses of the agency are on a plan. */
export async function businessesOnPlan(ctx: Pick<Ctx, 'db'>, input: { agencyId: number; planId: number }) {
  const [used] = await ctx.db
    .select({ n: count() })
    .from(businesses)
    .where(
      and(
        eq(businesses.agency_id, input.agencyId),
        eq(businesses.subscription_plan_id, input.planId),
        ne(businesses.status, 'deleted'),
      ),
    );
  return used?.n ?? 0;
}
