// The calls of the context's tenant that are live now (outcome in_progress): ringing while nobody is
// connected, in progress once the visitor is (connected_at). Read by the live view (ADR 083); a business
// sees its own, an agency its businesses'.
import { asc, eq } from 'drizzle-orm';
import { type Ctx, scope } from '../../platform/tenancy/context.ts';
import { calls } from './tables.ts';

export type LiveCallRow = {
  id: number;
  business_id: number;
  install_id: number;
  kind: 'callback' | 'scheduled' | 'inbound';
  state: 'ringing' | 'in_progress';
  visitor_phone: string;
  visitor_name: string | null;
  agent_name: string | null;
  since: Date;
};

/** At most this many calls: a live card, not a report. */
const MAX_LIVE_CALLS = 200;

export async function liveCalls(ctx: Ctx): Promise<LiveCallRow[]> {
  if (ctx.tenant.level === 'platform') return [];
  const rows = await ctx.db
    .select({
      id: calls.id,
      business_id: calls.business_id,
      install_id: calls.install_id,
      kind: calls.kind,
      visitor_phone: calls.visitor_phone,
      visitor_name: calls.visitor_name,
      agent_name: calls.agent_name,
      requested_at: calls.requested_at,
      connected_at: calls.connected_at,
    })
    .from(calls)
    .where(scope(ctx, calls, eq(calls.outcome, 'in_progress')))
    .orderBy(asc(calls.requested_at), asc(calls.id))
    .limit(MAX_LIVE_CALLS);
  return rows.map(({ requested_at, connected_at, ...r }) => ({
    ...r,
    state: connected_at ? 'in_progress' : 'ringing',
    since: connected_at ?? requested_at,
  }));
}
