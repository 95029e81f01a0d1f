ALTER TABLE "contact_imports" ADD COLUMN "duplicates" text DEFAULT 'skip' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_imports" ADD COLUMN "updated" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_imports" ADD COLUMN "skipped" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_imports" ADD COLUMN "resumes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "last_call_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "contact_imports_running_idx" ON "contact_imports" USING btree ("updated_at") WHERE "contact_imports"."status" = 'running';