CREATE TABLE "analytics_agent_daily" (
	"business_id" integer NOT NULL,
	"install_id" integer NOT NULL,
	"day" date NOT NULL,
	"agent_user_id" integer NOT NULL,
	"agent_name" text DEFAULT '' NOT NULL,
	"calls_answered" integer DEFAULT 0 NOT NULL,
	"talk_seconds" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "analytics_agent_daily_business_id_install_id_day_agent_user_id_pk" PRIMARY KEY("business_id","install_id","day","agent_user_id")
);
--> statement-breakpoint
CREATE TABLE "analytics_bins" (
	"business_id" integer NOT NULL,
	"install_id" integer NOT NULL,
	"day" date NOT NULL,
	"agency_id" integer NOT NULL,
	"series" smallint NOT NULL,
	"bin" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "analytics_bins_business_id_install_id_day_series_bin_pk" PRIMARY KEY("business_id","install_id","day","series","bin")
);
--> statement-breakpoint
CREATE TABLE "analytics_daily" (
	"business_id" integer NOT NULL,
	"install_id" integer NOT NULL,
	"day" date NOT NULL,
	"agency_id" integer NOT NULL,
	"callbacks_requested" integer DEFAULT 0 NOT NULL,
	"callbacks_answered" integer DEFAULT 0 NOT NULL,
	"callbacks_missed" integer DEFAULT 0 NOT NULL,
	"scheduled_calls" integer DEFAULT 0 NOT NULL,
	"inbound_calls" integer DEFAULT 0 NOT NULL,
	"inbound_answered" integer DEFAULT 0 NOT NULL,
	"calls_answered" integer DEFAULT 0 NOT NULL,
	"talk_seconds" integer DEFAULT 0 NOT NULL,
	"texts_in" integer DEFAULT 0 NOT NULL,
	"texts_out" integer DEFAULT 0 NOT NULL,
	"segments_out" integer DEFAULT 0 NOT NULL,
	"conversations_started" integer DEFAULT 0 NOT NULL,
	"opt_outs" integer DEFAULT 0 NOT NULL,
	"leads_callback" integer DEFAULT 0 NOT NULL,
	"leads_text" integer DEFAULT 0 NOT NULL,
	"leads_booking" integer DEFAULT 0 NOT NULL,
	"leads_form" integer DEFAULT 0 NOT NULL,
	"broadcast_texts" integer DEFAULT 0 NOT NULL,
	"automation_texts" integer DEFAULT 0 NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_daily_business_id_install_id_day_pk" PRIMARY KEY("business_id","install_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_dirty" (
	"business_id" integer NOT NULL,
	"install_id" integer NOT NULL,
	"day" date NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_dirty_business_id_install_id_day_pk" PRIMARY KEY("business_id","install_id","day")
);
--> statement-breakpoint
CREATE TABLE "analytics_watermarks" (
	"source" text PRIMARY KEY NOT NULL,
	"seen_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "analytics_bins_agency_idx" ON "analytics_bins" USING btree ("agency_id","day","series","bin","n");--> statement-breakpoint
CREATE INDEX "analytics_daily_agency_idx" ON "analytics_daily" USING btree ("agency_id","day","business_id","callbacks_requested","callbacks_answered","callbacks_missed","scheduled_calls","inbound_calls","inbound_answered","calls_answered","talk_seconds","texts_in","texts_out","segments_out","conversations_started","opt_outs","leads_callback","leads_text","leads_booking","leads_form","broadcast_texts","automation_texts");--> statement-breakpoint
CREATE INDEX "automation_steps_message_idx" ON "automation_steps" USING btree (("detail"->>'message_id')) WHERE "automation_steps"."type" = 'SendMessage';--> statement-breakpoint
CREATE INDEX "automation_steps_finished_idx" ON "automation_steps" USING btree ("finished_at") WHERE "automation_steps"."type" = 'SendMessage';--> statement-breakpoint
CREATE INDEX "messages_updated_idx" ON "messages" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "contacts_opted_out_idx" ON "contacts" USING btree ("opted_out_at") WHERE "contacts"."opted_out_at" is not null;--> statement-breakpoint
CREATE INDEX "lead_submissions_created_idx" ON "lead_submissions" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "calls_updated_idx" ON "calls" USING btree ("updated_at");--> statement-breakpoint
-- The time zone of an install's days (ADR 081): its own (installs.settings.timezone, the contract's default
-- when unset); install 0 (rows of no install) takes the business's first install's, else the default.
CREATE OR REPLACE FUNCTION analytics_tz(b integer, i integer) RETURNS text LANGUAGE sql STABLE AS $$
  select coalesce(
    case when i > 0
      then (select nullif(settings->>'timezone', '') from installs where id = i)
      else (select nullif(settings->>'timezone', '') from installs where business_id = b order by id limit 1)
    end,
    'America/New_York')
$$;
