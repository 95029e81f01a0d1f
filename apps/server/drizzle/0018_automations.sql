CREATE TABLE "automation_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"automation_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"trigger" text NOT NULL,
	"trigger_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"entry_key" text NOT NULL,
	"current_block" text,
	"vars" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automation_steps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" bigint NOT NULL,
	"business_id" integer NOT NULL,
	"automation_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"block_id" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"output" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"due_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"claimed_by" integer,
	"answer_wait" boolean DEFAULT false NOT NULL,
	"answer" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "automations" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"name" text NOT NULL,
	"start_trigger" text NOT NULL,
	"trigger" jsonb NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"blocks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"options" jsonb NOT NULL,
	"installs" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"webhook_token" text,
	"share_token" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automation_runs" ADD CONSTRAINT "automation_runs_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "automations" ADD CONSTRAINT "automations_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "automation_runs_entry_uq" ON "automation_runs" USING btree ("automation_id","contact_id","entry_key");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_runs_live_uq" ON "automation_runs" USING btree ("automation_id","contact_id") WHERE "automation_runs"."status" in ('active', 'waiting');--> statement-breakpoint
CREATE INDEX "automation_runs_contact_idx" ON "automation_runs" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "automation_runs_automation_idx" ON "automation_runs" USING btree ("automation_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "automation_steps_key_uq" ON "automation_steps" USING btree ("run_id","seq");--> statement-breakpoint
CREATE INDEX "automation_steps_due_idx" ON "automation_steps" USING btree ("due_at") WHERE "automation_steps"."status" in ('pending', 'waiting');--> statement-breakpoint
CREATE INDEX "automation_steps_running_idx" ON "automation_steps" USING btree ("claimed_by") WHERE "automation_steps"."status" = 'running';--> statement-breakpoint
CREATE INDEX "automation_steps_block_idx" ON "automation_steps" USING btree ("automation_id","block_id","status");--> statement-breakpoint
CREATE INDEX "automations_business_idx" ON "automations" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "automations_trigger_idx" ON "automations" USING btree ("business_id","start_trigger") WHERE "automations"."active" and "automations"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "automations_webhook_token_uq" ON "automations" USING btree ("webhook_token");--> statement-breakpoint
CREATE UNIQUE INDEX "automations_share_token_uq" ON "automations" USING btree ("share_token");