CREATE TABLE "support_widget_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"support_widget_agency_install_id" integer,
	"support_widget_business_install_id" integer,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_widget_settings_one_row" CHECK ("support_widget_settings"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE "support_widget_settings" ADD CONSTRAINT "support_widget_settings_support_widget_agency_install_id_installs_id_fk" FOREIGN KEY ("support_widget_agency_install_id") REFERENCES "public"."installs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_widget_settings" ADD CONSTRAINT "support_widget_settings_support_widget_business_install_id_installs_id_fk" FOREIGN KEY ("support_widget_business_install_id") REFERENCES "public"."installs"("id") ON DELETE no action ON UPDATE no action;