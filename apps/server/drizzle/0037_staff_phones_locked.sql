-- The busy staff phones of a business, read under its staff lock in one statement (issue 27, ADR 125).
-- The lock serialises the choice of staff phones within a business (ADR 051): two calls at once see each
-- other's legs. The read must see every leg committed before the lock was granted, so it cannot share a
-- statement's snapshot with the lock's wait; a volatile function's queries each take a fresh snapshot, so
-- the lock and the read it guards are one round trip, and may be part of a larger statement (a callback's
-- call, its legs and its count are one statement, the lock held until it commits). Runs as its caller:
-- row-level security applies. `final` is the leg statuses that free a phone (FINAL_STATUSES in
-- telephony/staff-phones.ts).
CREATE OR REPLACE FUNCTION stn_busy_staff_phones(business integer, final text[]) RETURNS SETOF text
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('staff:' || business));
  RETURN QUERY
    SELECT l.to_number FROM call_legs l JOIN calls c ON c.id = l.call_id
     WHERE c.business_id = business AND c.outcome = 'in_progress' AND l.role = 'staff'
       AND NOT (l.status = ANY (final))
       AND (c.claimed_leg_sid IS NULL OR c.claimed_leg_sid = l.call_sid);
END $$;
--> statement-breakpoint
-- A statement's refusal (ADR 125): `case when <condition> then true else stn_refuse('reason') end` aborts the
-- statement, and undoes its writes, when the condition fails: a callback's call and its legs are written in
-- one statement with the month's count last, and a count refused must leave no call behind. The caller
-- reads `reason` from the error's message (SQLSTATE P0001).
CREATE OR REPLACE FUNCTION stn_refuse(reason text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = reason;
END $$;
