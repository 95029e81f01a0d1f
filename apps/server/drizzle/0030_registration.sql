CREATE TABLE "carrier_campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"profile_id" integer NOT NULL,
	"brand_input" jsonb NOT NULL,
	"brand_sid" text,
	"brand_status" text,
	"brand_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"messaging_service_sid" text,
	"campaign_input" jsonb NOT NULL,
	"campaign_sid" text,
	"campaign_id" text,
	"campaign_status" text,
	"campaign_failures" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"throughput_mps" real,
	"number_sids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'brand-pending' NOT NULL,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "carrier_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"sid" text,
	"friendly_name" text NOT NULL,
	"email" text NOT NULL,
	"business" jsonb NOT NULL,
	"representative" jsonb NOT NULL,
	"address" jsonb NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"problems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"submitted_at" timestamp with time zone,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tollfree_verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"install_id" integer NOT NULL,
	"number_id" integer NOT NULL,
	"sid" text,
	"input" jsonb NOT NULL,
	"status" text DEFAULT 'PENDING_REVIEW' NOT NULL,
	"rejection_reason" text,
	"error_code" integer,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "businesses" ADD COLUMN "twilio_config" jsonb;--> statement-breakpoint
ALTER TABLE "carrier_campaigns" ADD CONSTRAINT "carrier_campaigns_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_campaigns" ADD CONSTRAINT "carrier_campaigns_profile_id_carrier_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."carrier_profiles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "carrier_profiles" ADD CONSTRAINT "carrier_profiles_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tollfree_verifications" ADD CONSTRAINT "tollfree_verifications_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tollfree_verifications" ADD CONSTRAINT "tollfree_verifications_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tollfree_verifications" ADD CONSTRAINT "tollfree_verifications_number_id_numbers_id_fk" FOREIGN KEY ("number_id") REFERENCES "public"."numbers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_campaigns_agency_uq" ON "carrier_campaigns" USING btree ("agency_id");--> statement-breakpoint
CREATE INDEX "carrier_profiles_agency_idx" ON "carrier_profiles" USING btree ("agency_id");--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_profiles_sid_uq" ON "carrier_profiles" USING btree ("sid");--> statement-breakpoint
CREATE UNIQUE INDEX "tollfree_verifications_number_uq" ON "tollfree_verifications" USING btree ("number_id");--> statement-breakpoint
CREATE INDEX "tollfree_verifications_business_idx" ON "tollfree_verifications" USING btree ("business_id");