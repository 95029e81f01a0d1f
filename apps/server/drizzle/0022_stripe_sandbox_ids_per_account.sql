-- The Stripe sandbox's object ids are unique within an account (a coupon's id is the caller's choice).
ALTER TABLE "stripe_sandbox_objects" DROP CONSTRAINT "stripe_sandbox_objects_pkey";--> statement-breakpoint
ALTER TABLE "stripe_sandbox_objects" ADD CONSTRAINT "stripe_sandbox_objects_account_id_id_pk" PRIMARY KEY("account_id","id");
