CREATE TYPE "public"."consultation_outcome" AS ENUM('discharge', 'hospitalize', 'refer', 'follow_up', 'deceased');--> statement-breakpoint
CREATE TYPE "public"."diagnosis_certainty" AS ENUM('confirmed', 'suspected');--> statement-breakpoint
CREATE TYPE "public"."diagnosis_rank" AS ENUM('primary', 'secondary');--> statement-breakpoint
CREATE TYPE "public"."exam_kind" AS ENUM('lab', 'imaging');--> statement-breakpoint
CREATE TYPE "public"."exam_status" AS ENUM('requested', 'in_progress', 'completed', 'validated', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."exam_urgency" AS ENUM('routine', 'urgent');--> statement-breakpoint
CREATE TYPE "public"."icd10_kind" AS ENUM('chapter', 'block', 'category', 'code');--> statement-breakpoint
CREATE TABLE "consultation_addenda" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"consultation_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "consultation_diagnoses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"consultation_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"icd_code" text,
	"label" text NOT NULL,
	"coded" boolean NOT NULL,
	"rank" "diagnosis_rank" NOT NULL,
	"certainty" "diagnosis_certainty" NOT NULL,
	"notes" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_by" uuid
);
--> statement-breakpoint
CREATE TABLE "exam_catalogue" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" "exam_kind" NOT NULL,
	"category" text NOT NULL,
	"name_fr" text NOT NULL,
	"name_en" text NOT NULL,
	"specimen" text,
	"fields" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort_order" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"order_number" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"consultation_id" uuid,
	"admission_id" uuid,
	"exam_id" uuid NOT NULL,
	"department_id" uuid,
	"urgency" "exam_urgency" DEFAULT 'routine' NOT NULL,
	"clinical_info" text,
	"status" "exam_status" DEFAULT 'requested' NOT NULL,
	"results" jsonb,
	"report" text,
	"abnormal" boolean DEFAULT false NOT NULL,
	"requested_by" uuid NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_by" uuid,
	"started_at" timestamp with time zone,
	"resulted_by" uuid,
	"resulted_at" timestamp with time zone,
	"validated_by" uuid,
	"validated_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"cancel_reason" text,
	"cancelled_by" uuid,
	"cancelled_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "icd10_codes" (
	"code" text PRIMARY KEY NOT NULL,
	"kind" "icd10_kind" NOT NULL,
	"parent_code" text,
	"chapter" text,
	"label_fr" text NOT NULL,
	"label_en" text NOT NULL,
	"common" boolean DEFAULT false NOT NULL,
	"imported" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consultations" ALTER COLUMN "admission_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "department_id" uuid;--> statement-breakpoint
UPDATE "consultations" c SET "department_id" = a."department_id" FROM "admissions" a WHERE a."id" = c."admission_id";--> statement-breakpoint
ALTER TABLE "consultations" ALTER COLUMN "department_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "history" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "current_treatment" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "allergies" text[];--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "allergies_confirmed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "examination" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "vitals" jsonb;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "conclusion" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "plan" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "outcome" "consultation_outcome";--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "outcome_notes" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "follow_up_date" date;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "completed_by" uuid;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "cancel_reason" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "created_by" uuid;--> statement-breakpoint
ALTER TABLE "consultation_addenda" ADD CONSTRAINT "consultation_addenda_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_addenda" ADD CONSTRAINT "consultation_addenda_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_addenda" ADD CONSTRAINT "consultation_addenda_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_diagnoses" ADD CONSTRAINT "consultation_diagnoses_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_diagnoses" ADD CONSTRAINT "consultation_diagnoses_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_diagnoses" ADD CONSTRAINT "consultation_diagnoses_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_diagnoses" ADD CONSTRAINT "consultation_diagnoses_icd_code_icd10_codes_code_fk" FOREIGN KEY ("icd_code") REFERENCES "public"."icd10_codes"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_diagnoses" ADD CONSTRAINT "consultation_diagnoses_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_diagnoses" ADD CONSTRAINT "consultation_diagnoses_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_exam_id_exam_catalogue_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exam_catalogue"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_resulted_by_users_id_fk" FOREIGN KEY ("resulted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_validated_by_users_id_fk" FOREIGN KEY ("validated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_orders" ADD CONSTRAINT "exam_orders_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultation_addenda_consultation_idx" ON "consultation_addenda" USING btree ("consultation_id","created_at");--> statement-breakpoint
CREATE INDEX "diagnoses_consultation_idx" ON "consultation_diagnoses" USING btree ("consultation_id","created_at");--> statement-breakpoint
CREATE INDEX "diagnoses_patient_idx" ON "consultation_diagnoses" USING btree ("patient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "diagnoses_hospital_code_idx" ON "consultation_diagnoses" USING btree ("hospital_id","icd_code");--> statement-breakpoint
CREATE UNIQUE INDEX "diagnoses_one_primary_uq" ON "consultation_diagnoses" USING btree ("consultation_id") WHERE "consultation_diagnoses"."rank" = 'primary' and "consultation_diagnoses"."removed_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "exam_catalogue_code_uq" ON "exam_catalogue" USING btree ("code");--> statement-breakpoint
CREATE INDEX "exam_catalogue_search_trgm_idx" ON "exam_catalogue" USING gin (f_unaccent(lower(code || ' ' || name_fr || ' ' || name_en)) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "exam_orders_hospital_number_uq" ON "exam_orders" USING btree ("hospital_id","order_number");--> statement-breakpoint
CREATE INDEX "exam_orders_worklist_idx" ON "exam_orders" USING btree ("hospital_id","status","urgency","requested_at");--> statement-breakpoint
CREATE INDEX "exam_orders_department_idx" ON "exam_orders" USING btree ("department_id","status","urgency","requested_at");--> statement-breakpoint
CREATE INDEX "exam_orders_patient_idx" ON "exam_orders" USING btree ("patient_id","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "exam_orders_consultation_idx" ON "exam_orders" USING btree ("consultation_id");--> statement-breakpoint
CREATE INDEX "exam_orders_requester_idx" ON "exam_orders" USING btree ("requested_by","status","acknowledged_at");--> statement-breakpoint
CREATE INDEX "icd10_parent_idx" ON "icd10_codes" USING btree ("parent_code");--> statement-breakpoint
CREATE INDEX "icd10_search_trgm_idx" ON "icd10_codes" USING gin (f_unaccent(lower(code || ' ' || label_fr || ' ' || label_en)) gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultations_department_idx" ON "consultations" USING btree ("department_id","started_at" DESC NULLS LAST);