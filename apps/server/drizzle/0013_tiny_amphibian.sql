ALTER TABLE "contact_imports" ADD COLUMN "resume_job" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "reconciled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "reconcile_checks" integer DEFAULT 0 NOT NULL;