ALTER TABLE "messages" ADD COLUMN "media_pending" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "media_unavailable" integer DEFAULT 0 NOT NULL;