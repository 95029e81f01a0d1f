CREATE TABLE "modal_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"email" text NOT NULL,
	"full_name" text NOT NULL,
	"business_name" text,
	"phone" text,
	"plan_id" integer,
	"status" text DEFAULT 'new' NOT NULL,
	"business_id" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_purchases" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"account_kind" text NOT NULL,
	"account_id" integer NOT NULL,
	"package_id" integer,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"quantity" integer NOT NULL,
	"price_cents" integer NOT NULL,
	"source" text NOT NULL,
	"payment_intent_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"stripe_account" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_events_stripe_account_event_id_pk" PRIMARY KEY("stripe_account","event_id")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_kind" text NOT NULL,
	"account_id" integer NOT NULL,
	"agency_id" integer NOT NULL,
	"stripe_account" text NOT NULL,
	"customer_id" text NOT NULL,
	"subscription_id" text,
	"plan_id" integer,
	"status" text DEFAULT 'none' NOT NULL,
	"current_period_end" timestamp with time zone,
	"trial_end" timestamp with time zone,
	"cancel_at_period_end" boolean DEFAULT false NOT NULL,
	"coupon_code" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_sandbox_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"secret_key" text NOT NULL,
	"publishable_key" text NOT NULL,
	"clock_offset_ms" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_sandbox_accounts_secret_key_unique" UNIQUE("secret_key"),
	CONSTRAINT "stripe_sandbox_accounts_publishable_key_unique" UNIQUE("publishable_key")
);
--> statement-breakpoint
CREATE TABLE "stripe_sandbox_objects" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "order_bump" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "type" text DEFAULT 'business' NOT NULL;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "stripe_account" text;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "stripe_product_id" text;--> statement-breakpoint
ALTER TABLE "plans" ADD COLUMN "stripe_price_id" text;--> statement-breakpoint
ALTER TABLE "modal_users" ADD CONSTRAINT "modal_users_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_purchases" ADD CONSTRAINT "package_purchases_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "modal_users_agency_idx" ON "modal_users" USING btree ("agency_id");--> statement-breakpoint
CREATE INDEX "package_purchases_account_idx" ON "package_purchases" USING btree ("account_kind","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_purchases_intent_uq" ON "package_purchases" USING btree ("payment_intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_account_uq" ON "subscriptions" USING btree ("account_kind","account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_customer_uq" ON "subscriptions" USING btree ("stripe_account","customer_id");--> statement-breakpoint
CREATE INDEX "subscriptions_agency_idx" ON "subscriptions" USING btree ("agency_id");--> statement-breakpoint
CREATE INDEX "stripe_sandbox_objects_type_idx" ON "stripe_sandbox_objects" USING btree ("account_id","type","created_at");