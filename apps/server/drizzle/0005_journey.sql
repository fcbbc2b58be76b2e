CREATE TYPE "public"."admission_status" AS ENUM('waiting', 'assigned', 'in_consultation', 'completed', 'hospitalized', 'transferred', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."admission_type" AS ENUM('outpatient', 'emergency', 'maternity', 'inpatient');--> statement-breakpoint
CREATE TYPE "public"."consultation_status" AS ENUM('in_progress', 'completed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."execution_kind" AS ENUM('consultation');--> statement-breakpoint
CREATE TYPE "public"."execution_status" AS ENUM('assigned', 'in_progress', 'completed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."sex" AS ENUM('F', 'M');--> statement-breakpoint
CREATE TABLE "admissions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"department_id" uuid NOT NULL,
	"admission_type" "admission_type" NOT NULL,
	"reason" text NOT NULL,
	"status" "admission_status" DEFAULT 'waiting' NOT NULL,
	"queue_date" date NOT NULL,
	"queue_number" integer NOT NULL,
	"admitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"triage_id" uuid,
	"triage_level" text,
	"triage_rank" smallint,
	"triage_target_minutes" integer,
	"cancel_reason" text,
	"cancelled_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consultations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"admission_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"doctor_id" uuid NOT NULL,
	"execution_id" uuid,
	"status" "consultation_status" DEFAULT 'in_progress' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "executions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"kind" "execution_kind" DEFAULT 'consultation' NOT NULL,
	"admission_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"doctor_id" uuid NOT NULL,
	"status" "execution_status" DEFAULT 'assigned' NOT NULL,
	"priority" smallint,
	"scheduled_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"assigned_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hospital_sequences" (
	"hospital_id" uuid NOT NULL,
	"name" text NOT NULL,
	"value" integer NOT NULL,
	CONSTRAINT "hospital_sequences_hospital_id_name_pk" PRIMARY KEY("hospital_id","name")
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"record_number" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"sex" "sex" NOT NULL,
	"birth_date" date,
	"birth_date_estimated" boolean DEFAULT false NOT NULL,
	"phone" text,
	"address" text,
	"national_id" text,
	"emergency_contact_name" text,
	"emergency_contact_phone" text,
	"blood_group" text,
	"allergies" text[] DEFAULT '{}'::text[] NOT NULL,
	"insurance_provider" text,
	"insurance_number" text,
	"archived_at" timestamp with time zone,
	"archived_reason" text,
	"archived_by" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "triage_records" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"admission_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"scale" "triage_scale" NOT NULL,
	"temperature" numeric(4, 1),
	"heart_rate" smallint,
	"respiratory_rate" smallint,
	"systolic_bp" smallint,
	"diastolic_bp" smallint,
	"spo2" smallint,
	"weight" numeric(5, 2),
	"height" numeric(5, 1),
	"glycaemia" numeric(4, 1),
	"pain" smallint,
	"gcs" smallint,
	"avpu" text,
	"confused" boolean,
	"mobility" text,
	"trauma" boolean,
	"chief_complaint" text NOT NULL,
	"discriminators" text[] DEFAULT '{}'::text[] NOT NULL,
	"tews" smallint,
	"suggested_level" text NOT NULL,
	"suggestion_reasons" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"level" text NOT NULL,
	"level_rank" smallint NOT NULL,
	"override_reason" text,
	"target_minutes" integer,
	"notes" text,
	"recorded_by" uuid NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admissions" ADD CONSTRAINT "admissions_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admissions" ADD CONSTRAINT "admissions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admissions" ADD CONSTRAINT "admissions_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admissions" ADD CONSTRAINT "admissions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_doctor_id_users_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_doctor_id_users_id_fk" FOREIGN KEY ("doctor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "executions" ADD CONSTRAINT "executions_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospital_sequences" ADD CONSTRAINT "hospital_sequences_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_archived_by_users_id_fk" FOREIGN KEY ("archived_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_records" ADD CONSTRAINT "triage_records_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_records" ADD CONSTRAINT "triage_records_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_records" ADD CONSTRAINT "triage_records_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "triage_records" ADD CONSTRAINT "triage_records_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admissions_hospital_queue_uq" ON "admissions" USING btree ("hospital_id","queue_date","queue_number");--> statement-breakpoint
CREATE INDEX "admissions_hospital_admitted_idx" ON "admissions" USING btree ("hospital_id","admitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "admissions_hospital_status_queue_idx" ON "admissions" USING btree ("hospital_id","status","triage_rank","admitted_at");--> statement-breakpoint
CREATE INDEX "admissions_department_status_idx" ON "admissions" USING btree ("department_id","status","triage_rank","admitted_at");--> statement-breakpoint
CREATE INDEX "admissions_patient_idx" ON "admissions" USING btree ("patient_id","admitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "consultations_admission_open_uq" ON "consultations" USING btree ("admission_id") WHERE "consultations"."status" = 'in_progress';--> statement-breakpoint
CREATE INDEX "consultations_patient_idx" ON "consultations" USING btree ("patient_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "consultations_doctor_idx" ON "consultations" USING btree ("doctor_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "consultations_hospital_idx" ON "consultations" USING btree ("hospital_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "executions_open_uq" ON "executions" USING btree ("admission_id","kind") WHERE "executions"."status" in ('assigned', 'in_progress');--> statement-breakpoint
CREATE INDEX "executions_doctor_status_idx" ON "executions" USING btree ("doctor_id","status","hospital_id");--> statement-breakpoint
CREATE INDEX "executions_doctor_completed_idx" ON "executions" USING btree ("doctor_id","completed_at");--> statement-breakpoint
CREATE INDEX "executions_hospital_status_idx" ON "executions" USING btree ("hospital_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "patients_hospital_record_uq" ON "patients" USING btree ("hospital_id","record_number");--> statement-breakpoint
CREATE INDEX "patients_hospital_created_idx" ON "patients" USING btree ("hospital_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "patients_hospital_national_id_idx" ON "patients" USING btree ("hospital_id","national_id");--> statement-breakpoint
CREATE INDEX "patients_name_trgm_idx" ON "patients" USING gin (f_unaccent(lower(last_name || ' ' || first_name)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "patients_phone_trgm_idx" ON "patients" USING gin (phone gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "triage_admission_idx" ON "triage_records" USING btree ("admission_id","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "triage_hospital_time_idx" ON "triage_records" USING btree ("hospital_id","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "triage_patient_idx" ON "triage_records" USING btree ("patient_id","recorded_at" DESC NULLS LAST);