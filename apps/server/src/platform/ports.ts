import type { Ctx } from './tenancy/context.ts';

/** What the users module checks of a business (its owner, seat limit, departments switch). */
export type BusinessLimits = {
  owner_id: number | null;
  number_of_users: number;
  number_of_installs: number;
  dep_enabled: boolean;
  settings: Record<string, unknown>;
};

/**
 * What a lower module asks of a higher one without importing it (ADR 054): each port is answered by the
 * module that owns the data and wired in app.ts, as the session holder is. Plain data in and out, so
 * that neither side knows the other's code.
 */
export type Ports = {
  /** The accounts the users module (rank 2) belongs to, answered by businesses (4) and agencies (5). */
  accounts: {
    /** The agency of a business; null when there is no such business. */
    agencyOfBusiness(ctx: Ctx, input: { businessId: number }): Promise<number | null>;
    /** Whether an agency exists (whatever its status). */
    agencyExists(ctx: Ctx, input: { id: number }): Promise<boolean>;
    /** A business's owner, seat limit and departments switch; `lock` takes the row's lock. */
    businessLimits(ctx: Ctx, input: { id: number; lock?: boolean }): Promise<BusinessLimits | undefined>;
  };
};
