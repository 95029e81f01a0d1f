CREATE TABLE "broadcast_recipients" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"broadcast_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"contact_id" integer,
	"phone" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"install_id" integer,
	"state" text DEFAULT 'pending' NOT NULL,
	"skip_reason" text,
	"time_zone" text,
	"due_at" timestamp with time zone NOT NULL,
	"broadcaster_id" integer,
	"from_number" text,
	"claimed_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"message_id" integer,
	"carrier_sid" text,
	"error_code" integer,
	"error_message" text,
	"credits" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"replied_at" timestamp with time zone,
	"opted_out_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcasters" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"number_id" integer NOT NULL,
	"phone_number" text NOT NULL,
	"kind" text DEFAULT 'long_code' NOT NULL,
	"custom_rate" real,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"media" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"template_id" integer,
	"audience" jsonb NOT NULL,
	"broadcaster_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"send_at" timestamp with time zone,
	"run" integer DEFAULT 0 NOT NULL,
	"credits_estimated" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"failure" text,
	"created_by" integer,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcast_send_slots" (
	"phone_number" text PRIMARY KEY NOT NULL,
	"next_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "broadcast_id" integer;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "time_zone" text;--> statement-breakpoint
ALTER TABLE "broadcast_recipients" ADD CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk" FOREIGN KEY ("broadcast_id") REFERENCES "public"."broadcasts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasters" ADD CONSTRAINT "broadcasters_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasters" ADD CONSTRAINT "broadcasters_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "broadcast_recipients_phone_uq" ON "broadcast_recipients" USING btree ("broadcast_id","phone");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_due_idx" ON "broadcast_recipients" USING btree ("broadcast_id","due_at") WHERE "broadcast_recipients"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "broadcast_recipients_state_idx" ON "broadcast_recipients" USING btree ("broadcast_id","state");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_contact_idx" ON "broadcast_recipients" USING btree ("contact_id");--> statement-breakpoint
CREATE INDEX "broadcast_recipients_message_idx" ON "broadcast_recipients" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "broadcasters_number_uq" ON "broadcasters" USING btree ("business_id","number_id");--> statement-breakpoint
CREATE INDEX "broadcasts_business_idx" ON "broadcasts" USING btree ("business_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_broadcast_idx" ON "messages" USING btree ("broadcast_id") WHERE "messages"."broadcast_id" is not null;