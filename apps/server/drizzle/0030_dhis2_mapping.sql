CREATE TABLE "dhis2_mappings" (
	"hospital_id" uuid NOT NULL,
	"indicator" text NOT NULL,
	"data_element" text NOT NULL,
	"category_option_combo" text NOT NULL,
	"attribute_option_combo" text,
	CONSTRAINT "dhis2_mappings_hospital_id_indicator_pk" PRIMARY KEY("hospital_id","indicator")
);
--> statement-breakpoint
CREATE TABLE "dhis2_settings" (
	"hospital_id" uuid PRIMARY KEY NOT NULL,
	"id_scheme" text DEFAULT 'UID' NOT NULL,
	"org_unit" text NOT NULL,
	"monthly_data_set" text,
	"weekly_data_set" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "dhis2_settings_scheme_ck" CHECK ("dhis2_settings"."id_scheme" in ('UID', 'CODE'))
);
--> statement-breakpoint
ALTER TABLE "dhis2_mappings" ADD CONSTRAINT "dhis2_mappings_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dhis2_settings" ADD CONSTRAINT "dhis2_settings_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dhis2_settings" ADD CONSTRAINT "dhis2_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;