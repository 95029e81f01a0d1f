// How often the business has been asked to call one visitor phone: the widget's per-destination cap
// (issue 17), so that a phone typed in again and again, from any number of addresses, is not rung all day.
import { and, eq, gte, type SQL, sql } from 'drizzle-orm';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { calls } from './tables.ts';

/**
 * The context business's callbacks to a phone (E.164) requested since `since`, whatever their outcome, as a
 * subquery: a callback's checks read it in their one statement (`prepareCall`, ADR 121).
 */
export function callbacksToPhoneSql(ctx: Ctx, input: { phone: string; since: Date }): SQL<unknown> {
  const { agencyId, businessId } = businessOf(ctx);
  return callbacksToPhoneOfSql({ agency: agencyId, business: businessId, ...input });
}

/** callbacksToPhoneSql of values or slots (a statement built once). */
export function callbacksToPhoneOfSql(input: {
  agency: number | SQL;
  business: number | SQL;
  phone: string | SQL;
  since: Date | SQL;
}): SQL<unknown> {
  return sql`(select count(*)::int from ${calls} where ${and(
    eq(calls.agency_id, input.agency),
    eq(calls.business_id, input.business),
    eq(calls.visitor_phone, input.phone),
    eq(calls.kind, 'callback'),
    gte(calls.requested_at, input.since),
  )})`;
}
