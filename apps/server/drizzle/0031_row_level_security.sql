-- Row-level security on every table that holds tenant data (issue 27, decision 097).
-- Two roles: stn_tenant, the application's role for a tenant's work (an agency or a business: subject to the
-- policies below, never BYPASSRLS), and stn_platform, the role whose members do platform-level work (the
-- role DATABASE_URL names, which owns the tables, runs migrations and the job queue, is made a member). The
-- tenant is set on the connection from the context: stn.agency_id and stn.business_id (empty for an
-- agency). With neither set, stn_tenant sees no tenant row at all.
DO $$ BEGIN
  CREATE ROLE stn_tenant NOLOGIN NOBYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
DO $$ BEGIN
  CREATE ROLE stn_platform NOLOGIN NOBYPASSRLS;
EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
END $$;
--> statement-breakpoint
-- The owner may act as either (its pool for tenants sets `role=stn_tenant`); two databases of one cluster
-- migrating at once may race on the grant, which then simply holds.
DO $$ BEGIN
  IF NOT pg_has_role(current_user, 'stn_tenant', 'MEMBER') THEN
    EXECUTE format('GRANT stn_tenant TO %I', current_user);
  END IF;
  IF NOT pg_has_role(current_user, 'stn_platform', 'MEMBER') THEN
    EXECUTE format('GRANT stn_platform TO %I', current_user);
  END IF;
EXCEPTION WHEN unique_violation OR internal_error THEN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stn_agency() RETURNS integer LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('stn.agency_id', true), '')::integer $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION stn_business() RETURNS integer LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT nullif(current_setting('stn.business_id', true), '')::integer $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO stn_tenant;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO stn_tenant;
--> statement-breakpoint
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO stn_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO stn_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO stn_tenant;
--> statement-breakpoint
-- A tenant's work enqueues jobs in its own transaction: the queue's tables (pg-boss creates them later, as the
-- owner, in its schema) are open to it; they hold no tenant's rows beyond job payloads.
CREATE SCHEMA IF NOT EXISTS pgboss;
--> statement-breakpoint
GRANT USAGE ON SCHEMA pgboss TO stn_tenant;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA pgboss TO stn_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA pgboss GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO stn_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA pgboss GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO stn_tenant;
--> statement-breakpoint
-- Protects one table: row-level security forced (the owner too), a policy giving stn_platform every row, and
-- the tenant's policy, chosen from the table's tenant columns. A later migration that adds a tenant table calls
-- it (`SELECT stn_protect('new_table');`); the meta-test (apps/server/test/rls.test.ts) fails until it does.
-- `via`: a table without tenant columns whose rows belong to a row of another table (its `column` names it):
-- the tenant sees the rows whose parent it sees.
CREATE OR REPLACE FUNCTION stn_protect(tbl regclass, via_column text DEFAULT NULL, via_table regclass DEFAULT NULL)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  has_agency boolean;
  agency_null boolean;
  has_business boolean;
  business_null boolean;
  name text := (SELECT relname FROM pg_class WHERE oid = tbl);
  business_rows text;
  read_rows text;
  write_rows text;
BEGIN
  SELECT count(*) > 0, bool_or(NOT attnotnull) INTO has_agency, agency_null
    FROM pg_attribute WHERE attrelid = tbl AND attname = 'agency_id' AND NOT attisdropped;
  SELECT count(*) > 0, bool_or(NOT attnotnull) INTO has_business, business_null
    FROM pg_attribute WHERE attrelid = tbl AND attname = 'business_id' AND NOT attisdropped;
  business_rows := CASE
    WHEN NOT has_business THEN 'true'
    WHEN business_null THEN '(stn_business() IS NULL OR business_id IS NULL OR business_id = stn_business())'
    ELSE '(stn_business() IS NULL OR business_id = stn_business())' END;
  IF via_column IS NOT NULL THEN
    read_rows := format('EXISTS (SELECT 1 FROM %s p WHERE p.id = %I)', via_table, via_column);
    write_rows := read_rows;
  ELSIF name = 'agencies' THEN
    read_rows := 'id = stn_agency()';
    write_rows := read_rows;
  ELSIF name = 'businesses' THEN
    read_rows := 'agency_id = stn_agency() AND (stn_business() IS NULL OR id = stn_business())';
    write_rows := read_rows;
  ELSIF has_agency THEN
    write_rows := format('agency_id = stn_agency() AND %s', business_rows);
    -- Rows without an agency are the platform's (an Admin, a platform page, the platform's own lists): a
    -- tenant may read them, never write them.
    read_rows := CASE WHEN agency_null THEN format('agency_id IS NULL OR (%s)', write_rows) ELSE write_rows END;
  ELSIF has_business THEN
    read_rows := 'business_id = stn_business() OR (stn_business() IS NULL AND business_id IN '
      || '(SELECT b.id FROM businesses b WHERE b.agency_id = stn_agency()))';
    write_rows := read_rows;
  ELSE
    RAISE EXCEPTION 'stn_protect: % has no tenant column and no parent', name;
  END IF;
  EXECUTE format('ALTER TABLE %s ENABLE ROW LEVEL SECURITY', tbl);
  EXECUTE format('ALTER TABLE %s FORCE ROW LEVEL SECURITY', tbl);
  EXECUTE format('DROP POLICY IF EXISTS platform_rows ON %s', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_read ON %s', tbl);
  EXECUTE format('DROP POLICY IF EXISTS tenant_rows ON %s', tbl);
  EXECUTE format('CREATE POLICY platform_rows ON %s TO stn_platform USING (true) WITH CHECK (true)', tbl);
  IF read_rows <> write_rows THEN
    EXECUTE format('CREATE POLICY tenant_read ON %s FOR SELECT TO stn_tenant USING (%s)', tbl, read_rows);
  END IF;
  EXECUTE format('CREATE POLICY tenant_rows ON %s TO stn_tenant USING (%s) WITH CHECK (%s)', tbl, write_rows,
    write_rows);
END
$fn$;
--> statement-breakpoint
-- Every table with a tenant column, and the rows that belong to a contact.
DO $$
DECLARE t record;
BEGIN
  FOR t IN
    SELECT DISTINCT c.oid::regclass AS tbl FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname IN ('agency_id', 'business_id') AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    PERFORM stn_protect(t.tbl);
  END LOOP;
  PERFORM stn_protect('agencies');
  PERFORM stn_protect('contact_tags', 'contact_id', 'contacts');
  PERFORM stn_protect('contact_automations', 'contact_id', 'contacts');
  PERFORM stn_protect('conversation_reads', 'contact_id', 'contacts');
END $$;
