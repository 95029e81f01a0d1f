-- Inbound texts counted by the statement that upserts their contacts (issue 27, ADR 117): the batch of
-- inbound texts sets its contacts' in_count in the upsert it runs anyway, and marks the transaction so that
-- its next insert of messages is not counted again by the statement trigger (which updated every contact
-- of the batch a second time: a second row version, and half of the messages insert's time). The mark is
-- taken by that insert (cleared), so every other insert of messages is counted as before.
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
