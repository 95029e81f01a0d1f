CREATE TABLE "contact_in_totals" (
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"install_id" integer NOT NULL,
	"agent_user_id" integer NOT NULL,
	"stripe" smallint NOT NULL,
	"in_sum" bigint NOT NULL,
	CONSTRAINT "contact_in_totals_business_id_install_id_agent_user_id_stripe_pk" PRIMARY KEY("business_id","install_id","agent_user_id","stripe")
);
--> statement-breakpoint
CREATE INDEX "conversation_reads_user_idx" ON "conversation_reads" USING btree ("user_id");--> statement-breakpoint
SELECT stn_protect('contact_in_totals');
--> statement-breakpoint
-- Unread totals by groups (issue 27, ADR 104): the messages in of a business's live contacts, summed by install
-- and assigned agent (0 for none). A user sees whole groups (all of them, its installs', or its own), so its
-- unread total is the sum over its groups less what it has seen of them (conversation_reads): no contact is
-- read. Each statement that writes contacts adds what it changed, in one upsert, in the order of the key
-- (two statements never lock two groups in opposite orders); a change of name or tag changes no sum. A group
-- is kept in 16 stripes, each connection writing its own (its process id's): concurrent transactions of one
-- busy business do not queue on one row, and a reader sums the stripes.
CREATE OR REPLACE FUNCTION stn_total_contacts_in() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  my_stripe smallint := pg_backend_pid() % 16;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO contact_in_totals AS t (agency_id, business_id, install_id, agent_user_id, stripe, in_sum)
      SELECT agency_id, business_id, coalesce(install_id, 0), coalesce(agent_user_id, 0), my_stripe, sum(in_count)
        FROM new_rows WHERE deleted_at IS NULL
       GROUP BY 1, 2, 3, 4 HAVING sum(in_count) <> 0 ORDER BY 2, 3, 4
    ON CONFLICT (business_id, install_id, agent_user_id, stripe) DO UPDATE SET in_sum = t.in_sum + excluded.in_sum;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO contact_in_totals AS t (agency_id, business_id, install_id, agent_user_id, stripe, in_sum)
      SELECT agency_id, business_id, coalesce(install_id, 0), coalesce(agent_user_id, 0), my_stripe, -sum(in_count)
        FROM old_rows WHERE deleted_at IS NULL
       GROUP BY 1, 2, 3, 4 HAVING sum(in_count) <> 0 ORDER BY 2, 3, 4
    ON CONFLICT (business_id, install_id, agent_user_id, stripe) DO UPDATE SET in_sum = t.in_sum + excluded.in_sum;
  ELSE
    INSERT INTO contact_in_totals AS t (agency_id, business_id, install_id, agent_user_id, stripe, in_sum)
      SELECT agency_id, business_id, i, a, my_stripe, sum(n)
        FROM (SELECT agency_id, business_id, coalesce(install_id, 0) AS i, coalesce(agent_user_id, 0) AS a,
                     in_count AS n FROM new_rows WHERE deleted_at IS NULL
              UNION ALL
              SELECT agency_id, business_id, coalesce(install_id, 0), coalesce(agent_user_id, 0), -in_count
                FROM old_rows WHERE deleted_at IS NULL) d
       GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 2, 3, 4
    ON CONFLICT (business_id, install_id, agent_user_id, stripe) DO UPDATE SET in_sum = t.in_sum + excluded.in_sum;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER contacts_in_total_insert AFTER INSERT ON contacts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stn_total_contacts_in();
--> statement-breakpoint
CREATE TRIGGER contacts_in_total_update AFTER UPDATE ON contacts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stn_total_contacts_in();
--> statement-breakpoint
CREATE TRIGGER contacts_in_total_delete AFTER DELETE ON contacts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stn_total_contacts_in();
--> statement-breakpoint
INSERT INTO contact_in_totals (agency_id, business_id, install_id, agent_user_id, stripe, in_sum)
  SELECT agency_id, business_id, coalesce(install_id, 0), coalesce(agent_user_id, 0), 0, sum(in_count)
    FROM contacts WHERE deleted_at IS NULL GROUP BY 1, 2, 3, 4 HAVING sum(in_count) <> 0;
--> statement-breakpoint
-- A text's day is worked out once per row when its rollup is marked: in PL/pgSQL the lookup's plan is kept
-- for the session, where a SQL function that cannot be inlined plans its query at every call (issue 27).
CREATE OR REPLACE FUNCTION analytics_tz(b integer, i integer) RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  zone text;
BEGIN
  IF i > 0 THEN
    SELECT nullif(settings->>'timezone', '') INTO zone FROM installs WHERE id = i;
  ELSE
    SELECT nullif(settings->>'timezone', '') INTO zone FROM installs WHERE business_id = b ORDER BY id LIMIT 1;
  END IF;
  RETURN coalesce(zone, 'America/New_York');
END $$;
