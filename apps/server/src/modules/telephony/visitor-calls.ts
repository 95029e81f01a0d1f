// How often the business has been asked to call one visitor phone: the widget's per-destination cap
// (issue 17), so that a phone typed in again and again, from any number of addresses, is not rung all day.
import { and, eq, gte, type SQL, sql } from 'drizzle-orm';
import { calls } from './tables.ts';

/**
 * The business's callbacks to a phone (E.164) requested since a moment, whatever their outcome, as a
 * subquery of a statement built once (its values slots): a callback's checks read it in their one statement
 * (`prepareCall`, ADR 121 and 133).
 */
export function callbacksToPhoneOfSql(input: {
  agency: SQL;
  business: SQL;
  phone: SQL;
  since: SQL;
}): SQL<unknown> {
  return sql`(select count(*)::int from ${calls} where ${and(
    eq(calls.agency_id, input.agency),
    eq(calls.business_id, input.business),
    eq(calls.visitor_phone, input.phone),
    eq(calls.kind, 'callback'),
    gte(calls.requested_at, input.since),
  )})`;
}
