CREATE TABLE "widget_presence" (
	"agency_id" integer NOT NULL,
	"business_id" integer NOT NULL,
	"install_id" integer NOT NULL,
	"visitor_id" text NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "widget_presence_install_id_visitor_id_pk" PRIMARY KEY("install_id","visitor_id")
);
--> statement-breakpoint
ALTER TABLE "widget_presence" ADD CONSTRAINT "widget_presence_agency_id_agencies_id_fk" FOREIGN KEY ("agency_id") REFERENCES "public"."agencies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_presence" ADD CONSTRAINT "widget_presence_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "widget_presence" ADD CONSTRAINT "widget_presence_install_id_installs_id_fk" FOREIGN KEY ("install_id") REFERENCES "public"."installs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "widget_presence_business_idx" ON "widget_presence" USING btree ("business_id","seen_at");--> statement-breakpoint
CREATE INDEX "widget_presence_agency_idx" ON "widget_presence" USING btree ("agency_id","seen_at");