ALTER TABLE "conversation_reads" ADD COLUMN "seen_in_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "in_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Unread counts by counting (issue 27, ADR 103): a conversation's messages in are counted on the contact as
-- they are written, and a user's look keeps the count it saw. A user's unread total is then a sum over the
-- conversations it sees, not a count of each conversation's messages since its look.
UPDATE contacts c SET in_count = k.n
  FROM (SELECT contact_id, count(*)::int AS n FROM messages WHERE direction = 'in' GROUP BY contact_id) k
 WHERE c.id = k.contact_id;
--> statement-breakpoint
-- Each look keeps what it saw by the old rule: the messages in at or before its time.
UPDATE conversation_reads r SET seen_in_count = (
  SELECT count(*)::int FROM messages m
   WHERE m.contact_id = r.contact_id AND m.direction = 'in' AND m.created_at <= r.seen_at);
--> statement-breakpoint
-- Messages written or removed (a contact's, with it): each statement adds its messages in to their contacts,
-- or takes them away, in one update. Both triggers name their rows `changed`.
CREATE OR REPLACE FUNCTION stn_count_messages_in() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign integer := CASE TG_OP WHEN 'DELETE' THEN -1 ELSE 1 END;
BEGIN
  UPDATE contacts c SET in_count = greatest(c.in_count + sign * k.n, 0)
    FROM (SELECT contact_id, count(*)::int AS n FROM changed
           WHERE direction = 'in' AND contact_id IS NOT NULL GROUP BY contact_id) k
   WHERE c.id = k.contact_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_in_count AFTER INSERT ON messages REFERENCING NEW TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION stn_count_messages_in();
--> statement-breakpoint
CREATE TRIGGER messages_in_uncount AFTER DELETE ON messages REFERENCING OLD TABLE AS changed
  FOR EACH STATEMENT EXECUTE FUNCTION stn_count_messages_in();
--> statement-breakpoint
-- A message moved to another contact, or turned in or out (nothing does either today): both counts follow.
CREATE OR REPLACE FUNCTION stn_recount_message_in() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.direction = 'in' AND OLD.contact_id IS NOT NULL THEN
    UPDATE contacts SET in_count = greatest(in_count - 1, 0) WHERE id = OLD.contact_id;
  END IF;
  IF NEW.direction = 'in' AND NEW.contact_id IS NOT NULL THEN
    UPDATE contacts SET in_count = in_count + 1 WHERE id = NEW.contact_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_in_recount AFTER UPDATE OF contact_id, direction ON messages
  FOR EACH ROW WHEN (OLD.contact_id IS DISTINCT FROM NEW.contact_id OR OLD.direction IS DISTINCT FROM NEW.direction)
  EXECUTE FUNCTION stn_recount_message_in();
