CREATE TABLE "optin_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"agency_id" integer NOT NULL,
	"email" text NOT NULL,
	"full_name" text NOT NULL,
	"business_name" text NOT NULL,
	"phone" text NOT NULL,
	"domain" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "optin_users" ADD CONSTRAINT "optin_users_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "optin_users_agency_idx" ON "optin_users" USING btree ("agency_id","created_at");