CREATE TABLE "hospital_settings" (
	"hospital_id" uuid PRIMARY KEY NOT NULL,
	"consultation_minutes" smallint NOT NULL,
	"working_hours" jsonb NOT NULL,
	"notification_sound" boolean NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "hospital_settings_minutes_ck" CHECK ("hospital_settings"."consultation_minutes" between 5 and 120)
);
--> statement-breakpoint
ALTER TABLE "hospital_settings" ADD CONSTRAINT "hospital_settings_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospital_settings" ADD CONSTRAINT "hospital_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;