-- Inbound texts counted by the statement that upserts their contacts (issue 27, ADR 117): the batch of
-- inbound texts sets its contacts' in_count in the upsert it runs anyway, and its insert of the messages
-- marks itself (a transaction-local setting its own rows set) so that the statement trigger does not count
-- them again (it updated every contact of the batch a second time: a second row version, and half of the
-- insert's time). The trigger takes the mark (clears it) at the end of that statement: every other insert
-- of messages is counted as before.
CREATE OR REPLACE FUNCTION stn_count_messages_in() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'DELETE' THEN -1 ELSE 1 END;
BEGIN
  IF TG_OP = 'INSERT' AND current_setting('stn.messages_in_counted', true) = 'on' THEN
    PERFORM set_config('stn.messages_in_counted', '', true);
    RETURN NULL;
  END IF;
  UPDATE contacts c SET in_count = greatest(c.in_count + sign * k.n, 0)
    FROM (SELECT contact_id, count(*)::int AS n FROM changed
           WHERE direction = 'in' AND contact_id IS NOT NULL GROUP BY contact_id) k
   WHERE c.id = k.contact_id;
  RETURN NULL;
END $$;
