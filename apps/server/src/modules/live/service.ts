// The live view (GET /v1/live-data, ADR 083): the calls ringing and in progress now and the visitors with
// the widget open, for a business (its own) or an agency (across its businesses); and the widget's
// heartbeat that keeps the visitors' side current. Calls are telephony's (read through its service);
// presence is this module's own table.
import type { TLiveData } from '@stn/contracts/live';
import { PRESENCE_WINDOW_SECONDS } from '@stn/contracts/presence';
import { and, count, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { forbidden } from '../../platform/http/errors.ts';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { businessNames } from '../businesses/service.ts';
import { installNames } from '../installs/service.ts';
import { liveCalls } from '../telephony/service.ts';
import { announceLiveData } from './announce.ts';
import { widgetPresence } from './tables.ts';

export { announceLiveData } from './announce.ts';

/** Rows unseen this long are removed when the install's visitors next come or go (a closed tab says nothing). */
const SWEEP_AFTER_SECONDS = 3600;

const windowStart = () => sql`now() - make_interval(secs => ${PRESENCE_WINDOW_SECONDS})`;

/**
 * A visitor's heartbeat (open) or goodbye (closed) for the context's install. Answers whether the visitor
 * now counts as open; announces `live_data` only when that changed (a beat of an open panel is quiet).
 */
export async function recordPresence(
  ctx: Ctx,
  input: { installId: number; visitorId: string; open: boolean },
): Promise<{ open: boolean }> {
  const { agencyId, businessId } = businessOf(ctx);
  const key = and(
    scope(ctx, widgetPresence),
    eq(widgetPresence.install_id, input.installId),
    eq(widgetPresence.visitor_id, input.visitorId),
  );
  if (!input.open) {
    const [gone] = await ctx.db
      .delete(widgetPresence)
      .where(key)
      .returning({ fresh: sql<boolean>`${widgetPresence.seen_at} >= ${windowStart()}` });
    if (gone?.fresh) announceLiveData(ctx);
    return { open: false };
  }
  const [was] = await ctx.db
    .select({ fresh: sql<boolean>`${widgetPresence.seen_at} >= ${windowStart()}` })
    .from(widgetPresence)
    .where(key);
  await ctx.db
    .insert(widgetPresence)
    .values({
      agency_id: agencyId,
      business_id: businessId,
      install_id: input.installId,
      visitor_id: input.visitorId,
    })
    .onConflictDoUpdate({
      target: [widgetPresence.install_id, widgetPresence.visitor_id],
      set: { seen_at: sql`now()` },
    });
  if (!was?.fresh) {
    // A newcomer: the time to forget the install's long-gone tabs too.
    await ctx.db
      .delete(widgetPresence)
      .where(
        and(
          scope(ctx, widgetPresence),
          eq(widgetPresence.install_id, input.installId),
          lt(widgetPresence.seen_at, sql`now() - make_interval(secs => ${SWEEP_AFTER_SECONDS})`),
        ),
      );
    announceLiveData(ctx);
  }
  return { open: true };
}

/** The live view of the context's business, or of every business of the context's agency. */
export async function liveData(ctx: Ctx): Promise<TLiveData> {
  if (ctx.tenant.level === 'platform') throw forbidden();
  const agency = ctx.tenant.level === 'agency';
  const [calls, visitors] = await Promise.all([
    liveCalls(ctx),
    ctx.db
      .select({
        install_id: widgetPresence.install_id,
        business_id: widgetPresence.business_id,
        count: count(),
      })
      .from(widgetPresence)
      .where(scope(ctx, widgetPresence, gte(widgetPresence.seen_at, windowStart())))
      .groupBy(widgetPresence.install_id, widgetPresence.business_id)
      .orderBy(desc(count()), widgetPresence.install_id),
  ]);
  const installIds = [...new Set([...calls.map((c) => c.install_id), ...visitors.map((v) => v.install_id)])];
  const businessIds = [
    ...new Set([...calls.map((c) => c.business_id), ...visitors.map((v) => v.business_id)]),
  ];
  const [installs, businesses] = await Promise.all([
    installNames(ctx, { ids: installIds }),
    agency ? businessNames(ctx, { ids: businessIds }) : Promise.resolve(new Map<number, string>()),
  ]);
  const whose = (businessId: number) =>
    agency ? { business_id: businessId, business_name: businesses.get(businessId) ?? '' } : {};
  return {
    calls: calls.map((c) => ({
      id: c.id,
      install_id: c.install_id,
      install_name: installs.get(c.install_id) ?? '',
      kind: c.kind,
      state: c.state,
      visitor_phone: c.visitor_phone,
      visitor_name: c.visitor_name,
      agent_name: c.agent_name,
      since: c.since.toISOString(),
      ...whose(c.business_id),
    })),
    visitors: {
      total: visitors.reduce((n, v) => n + v.count, 0),
      by_install: visitors.map((v) => ({
        install_id: v.install_id,
        install_name: installs.get(v.install_id) ?? '',
        count: v.count,
        ...whose(v.business_id),
      })),
    },
    at: new Date().toISOString(),
  };
}
