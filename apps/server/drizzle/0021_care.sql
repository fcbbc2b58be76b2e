CREATE TYPE "public"."care_execution_status" AS ENUM('scheduled', 'done', 'not_done', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."care_order_kind" AS ENUM('vitals', 'dressing', 'iv_line', 'positioning', 'feeding', 'specimen', 'custom');--> statement-breakpoint
CREATE TYPE "public"."care_order_status" AS ENUM('active', 'stopped', 'completed');--> statement-breakpoint
CREATE TYPE "public"."care_priority" AS ENUM('urgent', 'high', 'normal');--> statement-breakpoint
CREATE TYPE "public"."dose_outcome" AS ENUM('given', 'not_given');--> statement-breakpoint
CREATE TABLE "care_executions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"slot_at" timestamp with time zone NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"priority" smallint DEFAULT 3 NOT NULL,
	"status" "care_execution_status" DEFAULT 'scheduled' NOT NULL,
	"assignee_id" uuid,
	"assigned_by" uuid,
	"assigned_at" timestamp with time zone,
	"done_by" uuid,
	"done_at" timestamp with time zone,
	"not_done_reason" text,
	"note" text,
	"recorded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "care_executions_done_ck" CHECK ("care_executions"."status" <> 'done' or ("care_executions"."done_by" is not null and "care_executions"."done_at" is not null)),
	CONSTRAINT "care_executions_not_done_ck" CHECK ("care_executions"."status" <> 'not_done' or "care_executions"."not_done_reason" is not null)
);
--> statement-breakpoint
CREATE TABLE "care_fluids" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"kind" text NOT NULL,
	"volume_ml" integer NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"recorded_by" uuid NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "care_fluids_volume_ck" CHECK ("care_fluids"."volume_ml" > 0 and "care_fluids"."volume_ml" <= 10000),
	CONSTRAINT "care_fluids_direction_ck" CHECK ("care_fluids"."direction" in ('intake', 'output'))
);
--> statement-breakpoint
CREATE TABLE "care_handoffs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"shift_start" timestamp with time zone NOT NULL,
	"shift_end" timestamp with time zone NOT NULL,
	"shift_label" text NOT NULL,
	"situation" text NOT NULL,
	"background" text NOT NULL,
	"assessment" text NOT NULL,
	"recommendation" text NOT NULL,
	"changes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"author_id" uuid NOT NULL,
	"written_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_by" uuid,
	"acknowledged_at" timestamp with time zone,
	"acknowledge_note" text,
	CONSTRAINT "care_handoffs_ack_ck" CHECK ("care_handoffs"."acknowledged_by" is null or ("care_handoffs"."acknowledged_by" <> "care_handoffs"."author_id" and "care_handoffs"."acknowledged_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "care_orders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"kind" "care_order_kind" NOT NULL,
	"title" text NOT NULL,
	"instructions" text,
	"signs" text[] DEFAULT '{}'::text[] NOT NULL,
	"priority" "care_priority" DEFAULT 'normal' NOT NULL,
	"schedule" jsonb NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone,
	"status" "care_order_status" DEFAULT 'active' NOT NULL,
	"materialized_until" timestamp with time zone,
	"ordered_by" uuid NOT NULL,
	"ordered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stopped_by" uuid,
	"stopped_at" timestamp with time zone,
	"stop_reason" text,
	CONSTRAINT "care_orders_end_ck" CHECK ("care_orders"."end_at" is null or "care_orders"."end_at" >= "care_orders"."start_at"),
	CONSTRAINT "care_orders_stopped_ck" CHECK ("care_orders"."status" <> 'stopped' or "care_orders"."stopped_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "care_plans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"hospitalization_id" uuid,
	"admission_id" uuid,
	"hypercapnic" boolean DEFAULT false NOT NULL,
	"goals" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "care_plans_target_ck" CHECK (("care_plans"."hospitalization_id" is null) <> ("care_plans"."admission_id" is null))
);
--> statement-breakpoint
CREATE TABLE "care_vitals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"recorded_by" uuid NOT NULL,
	"temperature" numeric(4, 1),
	"heart_rate" smallint,
	"respiratory_rate" smallint,
	"systolic_bp" smallint,
	"diastolic_bp" smallint,
	"spo2" smallint,
	"on_oxygen" boolean DEFAULT false NOT NULL,
	"oxygen_flow" numeric(4, 1),
	"avpu" text,
	"confused" boolean,
	"pain" smallint,
	"weight" numeric(5, 2),
	"glycaemia" numeric(4, 1),
	"note" text,
	"news2_score" smallint,
	"news2" jsonb,
	"escalated_to" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"execution_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "medication_administrations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"prescription_line_id" uuid NOT NULL,
	"scheduled_at" timestamp with time zone NOT NULL,
	"outcome" "dose_outcome" NOT NULL,
	"given_at" timestamp with time zone,
	"dose" numeric(10, 3),
	"dose_unit" text,
	"route" "medication_route",
	"site" text,
	"reason" text,
	"note" text,
	"late" boolean DEFAULT false NOT NULL,
	"idempotency_key" uuid NOT NULL,
	"recorded_by" uuid NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medication_administrations_given_ck" CHECK ("medication_administrations"."outcome" <> 'given' or ("medication_administrations"."given_at" is not null and "medication_administrations"."dose" is not null and "medication_administrations"."route" is not null)),
	CONSTRAINT "medication_administrations_not_given_ck" CHECK ("medication_administrations"."outcome" <> 'not_given' or "medication_administrations"."reason" is not null)
);
--> statement-breakpoint
ALTER TABLE "hospital_settings" ADD COLUMN "shift_times" jsonb DEFAULT '["07:00","19:00"]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "care_executions" ADD CONSTRAINT "care_executions_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_executions" ADD CONSTRAINT "care_executions_plan_id_care_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."care_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_executions" ADD CONSTRAINT "care_executions_order_id_care_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."care_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_executions" ADD CONSTRAINT "care_executions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_executions" ADD CONSTRAINT "care_executions_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_executions" ADD CONSTRAINT "care_executions_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_executions" ADD CONSTRAINT "care_executions_done_by_users_id_fk" FOREIGN KEY ("done_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_fluids" ADD CONSTRAINT "care_fluids_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_fluids" ADD CONSTRAINT "care_fluids_plan_id_care_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."care_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_fluids" ADD CONSTRAINT "care_fluids_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_handoffs" ADD CONSTRAINT "care_handoffs_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_handoffs" ADD CONSTRAINT "care_handoffs_plan_id_care_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."care_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_handoffs" ADD CONSTRAINT "care_handoffs_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_handoffs" ADD CONSTRAINT "care_handoffs_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_handoffs" ADD CONSTRAINT "care_handoffs_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_orders" ADD CONSTRAINT "care_orders_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_orders" ADD CONSTRAINT "care_orders_plan_id_care_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."care_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_orders" ADD CONSTRAINT "care_orders_ordered_by_users_id_fk" FOREIGN KEY ("ordered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_orders" ADD CONSTRAINT "care_orders_stopped_by_users_id_fk" FOREIGN KEY ("stopped_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_plans" ADD CONSTRAINT "care_plans_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_plans" ADD CONSTRAINT "care_plans_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_plans" ADD CONSTRAINT "care_plans_hospitalization_id_hospitalizations_id_fk" FOREIGN KEY ("hospitalization_id") REFERENCES "public"."hospitalizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_plans" ADD CONSTRAINT "care_plans_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_plans" ADD CONSTRAINT "care_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_vitals" ADD CONSTRAINT "care_vitals_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_vitals" ADD CONSTRAINT "care_vitals_plan_id_care_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."care_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_vitals" ADD CONSTRAINT "care_vitals_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_vitals" ADD CONSTRAINT "care_vitals_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "care_vitals" ADD CONSTRAINT "care_vitals_execution_id_care_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."care_executions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_administrations" ADD CONSTRAINT "medication_administrations_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_administrations" ADD CONSTRAINT "medication_administrations_plan_id_care_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."care_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_administrations" ADD CONSTRAINT "medication_administrations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_administrations" ADD CONSTRAINT "medication_administrations_prescription_line_id_prescription_lines_id_fk" FOREIGN KEY ("prescription_line_id") REFERENCES "public"."prescription_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_administrations" ADD CONSTRAINT "medication_administrations_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "care_executions_slot_uq" ON "care_executions" USING btree ("order_id","slot_at");--> statement-breakpoint
CREATE INDEX "care_executions_hospital_due_idx" ON "care_executions" USING btree ("hospital_id","status","scheduled_at");--> statement-breakpoint
CREATE INDEX "care_executions_assignee_idx" ON "care_executions" USING btree ("assignee_id","status","scheduled_at");--> statement-breakpoint
CREATE INDEX "care_executions_plan_idx" ON "care_executions" USING btree ("plan_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "care_fluids_plan_idx" ON "care_fluids" USING btree ("plan_id","recorded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "care_handoffs_shift_uq" ON "care_handoffs" USING btree ("plan_id","shift_start");--> statement-breakpoint
CREATE INDEX "care_handoffs_hospital_idx" ON "care_handoffs" USING btree ("hospital_id","shift_start");--> statement-breakpoint
CREATE INDEX "care_handoffs_pending_idx" ON "care_handoffs" USING btree ("hospital_id","shift_start") WHERE "care_handoffs"."acknowledged_at" is null;--> statement-breakpoint
CREATE INDEX "care_orders_plan_idx" ON "care_orders" USING btree ("plan_id","status","ordered_at");--> statement-breakpoint
CREATE INDEX "care_orders_active_idx" ON "care_orders" USING btree ("status","materialized_until");--> statement-breakpoint
CREATE INDEX "care_orders_hospital_idx" ON "care_orders" USING btree ("hospital_id","ordered_at");--> statement-breakpoint
CREATE UNIQUE INDEX "care_plans_hospitalization_uq" ON "care_plans" USING btree ("hospitalization_id") WHERE "care_plans"."hospitalization_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "care_plans_admission_uq" ON "care_plans" USING btree ("admission_id") WHERE "care_plans"."admission_id" is not null;--> statement-breakpoint
CREATE INDEX "care_plans_hospital_idx" ON "care_plans" USING btree ("hospital_id","created_at");--> statement-breakpoint
CREATE INDEX "care_plans_patient_idx" ON "care_plans" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "care_vitals_plan_idx" ON "care_vitals" USING btree ("plan_id","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "care_vitals_patient_idx" ON "care_vitals" USING btree ("patient_id","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "care_vitals_hospital_idx" ON "care_vitals" USING btree ("hospital_id","recorded_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "medication_administrations_dose_uq" ON "medication_administrations" USING btree ("prescription_line_id","scheduled_at");--> statement-breakpoint
CREATE UNIQUE INDEX "medication_administrations_key_uq" ON "medication_administrations" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "medication_administrations_plan_idx" ON "medication_administrations" USING btree ("plan_id","scheduled_at");