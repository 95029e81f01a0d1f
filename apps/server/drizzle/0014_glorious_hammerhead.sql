CREATE TABLE "widget_code_guesses" (
	"id" serial PRIMARY KEY NOT NULL,
	"business_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"thread" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "widget_code_guesses" ADD CONSTRAINT "widget_code_guesses_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_code_guesses" ADD CONSTRAINT "widget_code_guesses_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "widget_code_guesses_phone_idx" ON "widget_code_guesses" USING btree ("business_id","contact_id","created_at");