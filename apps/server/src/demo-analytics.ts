// The demo business's call history (issue 24): a few hundred calls over the five weeks before the first start,
// so that the dashboards (and AdminSupport's first screen) show figures on `npm start`. Instant callbacks
// (most answered within seconds by Front desk or Dr. Bright, some missed), calls booked and calls to the
// install's number, in business hours of the install's zone. They end at least two days before the start, so
// a call made today is alone in a range of today. Visitors' numbers are their own (no demo contact's
// conversation changes). One set-based statement; the rollups are built by the first sweep at start.
import { sql } from 'drizzle-orm';
import type { Ctx } from './platform/tenancy/context.ts';

export async function seedDemoCalls(
  ctx: Ctx,
  input: {
    agencyId: number;
    businessId: number;
    installId: number;
    agents: { id: number | null; name: string }[];
  },
): Promise<void> {
  const ids = input.agents.map((a) => a.id);
  const names = input.agents.map((a) => a.name);
  await ctx.db.execute(sql`
    with g as (
      select n, random() as r1, random() as r2, random() as r3, random() as r4,
        -- A day 2..35 days ago, between 08:00 and 18:00 in the install's zone.
        ((date_trunc('day', now() at time zone analytics_tz(${input.businessId}, ${input.installId}))
          - make_interval(days => 2 + floor(random() * 34)::int)
          + make_interval(mins => 480 + floor(random() * 600)::int))
          at time zone analytics_tz(${input.businessId}, ${input.installId})) as at
      from generate_series(1, 420) n
    ), c as (
      select n, at, r3, r4,
        case when r1 < 0.7 then 'callback' when r1 < 0.82 then 'scheduled' else 'inbound' end as kind,
        r2 < 0.83 as answered
      from g
    )
    insert into calls (agency_id, business_id, install_id, kind, outcome, visitor_phone, visitor_name,
      requested_at, scheduled_for, claimed_at, connected_at, ended_at, duration, agent_user_id, agent_name,
      created_at, updated_at)
    select ${input.agencyId}, ${input.businessId}, ${input.installId}, kind,
      case when answered then 'completed' else 'missed' end,
      '+1415555' || lpad((2000 + n)::text, 4, '0'), null,
      at, case when kind = 'scheduled' then at + interval '1 day' else null end,
      case when answered then at + make_interval(secs => 2 + r3 * 6) end,
      -- Connected 4..20 s after the request, now and then later.
      case when answered and kind <> 'inbound' then at + make_interval(secs => 4 + r3 * 16 + case when r4 < 0.08 then 25 else 0 end) end,
      at + make_interval(secs => 30 + r4 * 400),
      case when answered then 20 + floor(r4 * 380)::int end,
      case when answered then (${sql.param(ids)}::int[])[1 + floor(r3 * ${ids.length})::int] end,
      case when answered then (${sql.param(names)}::text[])[1 + floor(r3 * ${names.length})::int] end,
      at, now()
    from c`);
}
