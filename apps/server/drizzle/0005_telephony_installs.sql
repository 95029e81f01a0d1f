CREATE TABLE "call_legs" (
	"id" serial PRIMARY KEY NOT NULL,
	"call_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"call_sid" text NOT NULL,
	"role" text NOT NULL,
	"to_number" text NOT NULL,
	"agent_user_id" integer,
	"agent_name" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"sequence" integer DEFAULT -1 NOT NULL,
	"answered_by" text,
	"digits" text,
	"duration" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"install_id" integer NOT NULL,
	"kind" text NOT NULL,
	"outcome" text NOT NULL,
	"visitor_phone" text NOT NULL,
	"visitor_name" text,
	"visitor_email" text,
	"visitor_ip" text,
	"department_id" integer,
	"from_number" text,
	"caller_id" text,
	"agent_user_id" integer,
	"agent_name" text,
	"agent_phone" text,
	"claimed_leg_sid" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"scheduled_for" timestamp with time zone,
	"claimed_at" timestamp with time zone,
	"connected_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"duration" integer,
	"recording_sid" text,
	"recording_url" text,
	"recording_duration" integer,
	"ring_state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"counted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carrier_events" (
	"key" text PRIMARY KEY NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "numbers" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"install_id" integer,
	"phone_number" text NOT NULL,
	"friendly_name" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"carrier_sid" text,
	"capabilities" jsonb DEFAULT '{"voice":true,"sms":true,"mms":false}'::jsonb NOT NULL,
	"verified" boolean DEFAULT false NOT NULL,
	"validation_code" text,
	"sms_enabled" boolean DEFAULT true NOT NULL,
	"released_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "voice_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"install_id" integer,
	"call_id" integer,
	"from_number" text NOT NULL,
	"recording_sid" text NOT NULL,
	"recording_url" text NOT NULL,
	"duration" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "installs" ADD COLUMN "website" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "installs" ADD COLUMN "active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "installs" ADD COLUMN "widget_icon" text;--> statement-breakpoint
ALTER TABLE "installs" ADD COLUMN "logo" text;--> statement-breakpoint
ALTER TABLE "installs" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "installs" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "call_legs" ADD CONSTRAINT "call_legs_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calls" ADD CONSTRAINT "calls_install_id_installs_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."installs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "numbers" ADD CONSTRAINT "numbers_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "numbers" ADD CONSTRAINT "numbers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "numbers" ADD CONSTRAINT "numbers_install_id_installs_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."installs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_records" ADD CONSTRAINT "voice_records_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_records" ADD CONSTRAINT "voice_records_install_id_installs_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."installs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_records" ADD CONSTRAINT "voice_records_call_id_calls_id_fk" FOREIGN KEY ("call_id") REFERENCES "public"."calls"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "call_legs_sid_uq" ON "call_legs" USING btree ("call_sid");--> statement-breakpoint
CREATE INDEX "call_legs_call_idx" ON "call_legs" USING btree ("call_id");--> statement-breakpoint
CREATE INDEX "calls_business_idx" ON "calls" USING btree ("business_id","requested_at");--> statement-breakpoint
CREATE INDEX "calls_install_idx" ON "calls" USING btree ("install_id");--> statement-breakpoint
CREATE UNIQUE INDEX "calls_in_flight_uq" ON "calls" USING btree ("business_id","visitor_phone") WHERE "calls"."outcome" = 'in_progress';--> statement-breakpoint
CREATE UNIQUE INDEX "numbers_live_uq" ON "numbers" USING btree ("business_id","phone_number","kind") WHERE "numbers"."released_at" is null;--> statement-breakpoint
CREATE INDEX "numbers_phone_idx" ON "numbers" USING btree ("phone_number");--> statement-breakpoint
CREATE INDEX "numbers_install_idx" ON "numbers" USING btree ("install_id");--> statement-breakpoint
CREATE UNIQUE INDEX "voice_records_sid_uq" ON "voice_records" USING btree ("recording_sid");--> statement-breakpoint
CREATE INDEX "voice_records_business_idx" ON "voice_records" USING btree ("business_id");--> statement-breakpoint
UPDATE "installs" SET "status" = 'archived', "active" = false WHERE "status" = 'disabled';
