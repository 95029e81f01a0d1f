CREATE TABLE "stripe_webhooks" (
	"stripe_account" text PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"secret" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "has_payment_method" boolean DEFAULT false NOT NULL;