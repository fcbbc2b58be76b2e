CREATE TABLE "hospital_dose_limits" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"medication_code" text NOT NULL,
	"route" text DEFAULT '' NOT NULL,
	"substance" text NOT NULL,
	"component" smallint DEFAULT 0 NOT NULL,
	"unit" text NOT NULL,
	"adult_dose" numeric,
	"adult_day" numeric,
	"kg_dose" numeric,
	"kg_day" numeric,
	"weight_dosed" boolean DEFAULT false NOT NULL,
	"pregnancy" text,
	"no_limit" text,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "medication_safety_overrides" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"prescription_id" uuid NOT NULL,
	"prescription_line_id" uuid,
	"code" text NOT NULL,
	"stage" text NOT NULL,
	"reason" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medication_safety_overrides_stage_ck" CHECK ("medication_safety_overrides"."stage" in ('prescribe', 'dispense', 'administer')),
	CONSTRAINT "medication_safety_overrides_reason_ck" CHECK (length(btrim("medication_safety_overrides"."reason")) >= 5)
);
--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD COLUMN "first_dose_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "hospital_dose_limits" ADD CONSTRAINT "hospital_dose_limits_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_safety_overrides" ADD CONSTRAINT "medication_safety_overrides_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_safety_overrides" ADD CONSTRAINT "medication_safety_overrides_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_safety_overrides" ADD CONSTRAINT "medication_safety_overrides_prescription_line_id_prescription_lines_id_fk" FOREIGN KEY ("prescription_line_id") REFERENCES "public"."prescription_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_safety_overrides" ADD CONSTRAINT "medication_safety_overrides_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "hospital_dose_limits_uq" ON "hospital_dose_limits" USING btree ("hospital_id","medication_code","route","substance");--> statement-breakpoint
CREATE INDEX "hospital_dose_limits_hospital_idx" ON "hospital_dose_limits" USING btree ("hospital_id");--> statement-breakpoint
CREATE UNIQUE INDEX "medication_safety_overrides_uq" ON "medication_safety_overrides" USING btree ("prescription_id",coalesce("prescription_line_id", '00000000-0000-0000-0000-000000000000'::uuid),"code","stage");