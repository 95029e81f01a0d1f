CREATE TABLE "zapier_api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"key_hash" text NOT NULL,
	"prefix" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zapier_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zapier_hooks" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"event" text NOT NULL,
	"target_url" text NOT NULL,
	"token_id" integer,
	"api_key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "zapier_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"access_hash" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_hash" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "zapier_api_keys" ADD CONSTRAINT "zapier_api_keys_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_api_keys" ADD CONSTRAINT "zapier_api_keys_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_codes" ADD CONSTRAINT "zapier_codes_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_codes" ADD CONSTRAINT "zapier_codes_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_hooks" ADD CONSTRAINT "zapier_hooks_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_hooks" ADD CONSTRAINT "zapier_hooks_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_hooks" ADD CONSTRAINT "zapier_hooks_token_id_zapier_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."zapier_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_hooks" ADD CONSTRAINT "zapier_hooks_api_key_id_zapier_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."zapier_api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_tokens" ADD CONSTRAINT "zapier_tokens_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "zapier_tokens" ADD CONSTRAINT "zapier_tokens_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "zapier_api_keys_hash_uq" ON "zapier_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "zapier_api_keys_business_idx" ON "zapier_api_keys" USING btree ("business_id");--> statement-breakpoint
CREATE UNIQUE INDEX "zapier_codes_hash_uq" ON "zapier_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "zapier_hooks_business_event_idx" ON "zapier_hooks" USING btree ("business_id","event");--> statement-breakpoint
CREATE UNIQUE INDEX "zapier_tokens_access_uq" ON "zapier_tokens" USING btree ("access_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "zapier_tokens_refresh_uq" ON "zapier_tokens" USING btree ("refresh_hash");--> statement-breakpoint
CREATE INDEX "zapier_tokens_business_idx" ON "zapier_tokens" USING btree ("business_id");