CREATE TYPE "public"."discharge_mode" AS ENUM('home', 'against_advice', 'transferred', 'deceased');--> statement-breakpoint
CREATE TYPE "public"."hospitalization_status" AS ENUM('pending_bed', 'admitted', 'discharged', 'transferred_out', 'deceased');--> statement-breakpoint
CREATE TYPE "public"."transfer_kind" AS ENUM('internal', 'external');--> statement-breakpoint
CREATE TYPE "public"."transfer_status" AS ENUM('requested', 'accepted', 'rejected', 'completed', 'cancelled');--> statement-breakpoint
CREATE TABLE "bed_assignments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"hospitalization_id" uuid NOT NULL,
	"bed_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"assigned_by" uuid
);
--> statement-breakpoint
CREATE TABLE "hospitalizations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"admission_id" uuid,
	"consultation_id" uuid,
	"department_id" uuid NOT NULL,
	"doctor_id" uuid NOT NULL,
	"status" "hospitalization_status" DEFAULT 'pending_bed' NOT NULL,
	"reason" text NOT NULL,
	"provisional_icd_code" text,
	"expected_days" smallint,
	"bed_id" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admitted_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"discharge_mode" "discharge_mode",
	"discharge_icd_codes" text[],
	"discharge_summary" text,
	"discharge_treatments" text,
	"follow_up_date" date,
	"death_at" timestamp with time zone,
	"death_icd_code" text,
	"discharged_by" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "hospitalizations_bed_state_ck" CHECK (("hospitalizations"."status" = 'admitted') = ("hospitalizations"."bed_id" is not null)),
	CONSTRAINT "hospitalizations_closed_ck" CHECK ("hospitalizations"."status" in ('pending_bed', 'admitted') or ("hospitalizations"."ended_at" is not null and "hospitalizations"."discharge_mode" is not null))
);
--> statement-breakpoint
CREATE TABLE "progress_notes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"hospitalization_id" uuid NOT NULL,
	"addendum_of" uuid,
	"author_id" uuid NOT NULL,
	"text" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"hospitalization_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"kind" "transfer_kind" NOT NULL,
	"status" "transfer_status" DEFAULT 'requested' NOT NULL,
	"from_department_id" uuid NOT NULL,
	"to_department_id" uuid,
	"to_ward_id" uuid,
	"to_hospital_id" uuid,
	"facility_name" text,
	"reason" text NOT NULL,
	"summary" text,
	"treatments" text,
	"requested_by" uuid NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"reject_reason" text,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transfers_target_ck" CHECK (("transfers"."kind" = 'internal' and "transfers"."to_department_id" is not null) or ("transfers"."kind" = 'external' and ("transfers"."to_hospital_id" is not null or "transfers"."facility_name" is not null)))
);
--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "deceased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bed_assignments" ADD CONSTRAINT "bed_assignments_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bed_assignments" ADD CONSTRAINT "bed_assignments_hospitalization_id_hospitalizations_id_fk" FOREIGN KEY ("hospitalization_id") REFERENCES "public"."hospitalizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bed_assignments" ADD CONSTRAINT "bed_assignments_bed_id_beds_id_fk" FOREIGN KEY ("bed_id") REFERENCES "public"."beds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bed_assignments" ADD CONSTRAINT "bed_assignments_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_doctor_id_users_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_provisional_icd_code_icd10_codes_code_fk" FOREIGN KEY ("provisional_icd_code") REFERENCES "public"."icd10_codes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_bed_id_beds_id_fk" FOREIGN KEY ("bed_id") REFERENCES "public"."beds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_death_icd_code_icd10_codes_code_fk" FOREIGN KEY ("death_icd_code") REFERENCES "public"."icd10_codes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_discharged_by_users_id_fk" FOREIGN KEY ("discharged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospitalizations" ADD CONSTRAINT "hospitalizations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "progress_notes" ADD CONSTRAINT "progress_notes_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "progress_notes" ADD CONSTRAINT "progress_notes_hospitalization_id_hospitalizations_id_fk" FOREIGN KEY ("hospitalization_id") REFERENCES "public"."hospitalizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "progress_notes" ADD CONSTRAINT "progress_notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_hospitalization_id_hospitalizations_id_fk" FOREIGN KEY ("hospitalization_id") REFERENCES "public"."hospitalizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_from_department_id_departments_id_fk" FOREIGN KEY ("from_department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_to_department_id_departments_id_fk" FOREIGN KEY ("to_department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_to_ward_id_wards_id_fk" FOREIGN KEY ("to_ward_id") REFERENCES "public"."wards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_to_hospital_id_hospitals_id_fk" FOREIGN KEY ("to_hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bed_assignments_bed_open_uq" ON "bed_assignments" USING btree ("bed_id") WHERE "bed_assignments"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "bed_assignments_stay_open_uq" ON "bed_assignments" USING btree ("hospitalization_id") WHERE "bed_assignments"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "bed_assignments_stay_idx" ON "bed_assignments" USING btree ("hospitalization_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hospitalizations_patient_open_uq" ON "hospitalizations" USING btree ("patient_id") WHERE "hospitalizations"."status" in ('pending_bed', 'admitted');--> statement-breakpoint
CREATE UNIQUE INDEX "hospitalizations_bed_uq" ON "hospitalizations" USING btree ("bed_id") WHERE "hospitalizations"."bed_id" is not null;--> statement-breakpoint
CREATE INDEX "hospitalizations_hospital_status_idx" ON "hospitalizations" USING btree ("hospital_id","status","requested_at");--> statement-breakpoint
CREATE INDEX "hospitalizations_department_status_idx" ON "hospitalizations" USING btree ("department_id","status");--> statement-breakpoint
CREATE INDEX "hospitalizations_doctor_status_idx" ON "hospitalizations" USING btree ("doctor_id","status");--> statement-breakpoint
CREATE INDEX "hospitalizations_patient_idx" ON "hospitalizations" USING btree ("patient_id","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "hospitalizations_admission_idx" ON "hospitalizations" USING btree ("admission_id");--> statement-breakpoint
CREATE INDEX "progress_notes_stay_idx" ON "progress_notes" USING btree ("hospitalization_id","signed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "progress_notes_addendum_idx" ON "progress_notes" USING btree ("addendum_of");--> statement-breakpoint
CREATE UNIQUE INDEX "transfers_stay_open_uq" ON "transfers" USING btree ("hospitalization_id") WHERE "transfers"."status" in ('requested', 'accepted');--> statement-breakpoint
CREATE INDEX "transfers_hospital_status_idx" ON "transfers" USING btree ("hospital_id","status","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transfers_to_hospital_idx" ON "transfers" USING btree ("to_hospital_id","status") WHERE "transfers"."to_hospital_id" is not null;--> statement-breakpoint
CREATE INDEX "transfers_stay_idx" ON "transfers" USING btree ("hospitalization_id","requested_at" DESC NULLS LAST);