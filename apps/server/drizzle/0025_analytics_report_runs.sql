CREATE TABLE "analytics_report_runs" (
	"business_id" integer NOT NULL,
	"schedule" text NOT NULL,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "analytics_report_runs_business_id_schedule_period_from_pk" PRIMARY KEY("business_id","schedule","period_from")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;