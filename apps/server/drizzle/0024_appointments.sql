CREATE TYPE "public"."appointment_status" AS ENUM('booked', 'confirmed', 'checked_in', 'completed', 'no_show', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."appointment_type" AS ENUM('new', 'follow_up', 'antenatal', 'vaccination', 'procedure', 'other');--> statement-breakpoint
CREATE TYPE "public"."schedule_exception_kind" AS ENUM('leave', 'training', 'other');--> statement-breakpoint
CREATE TABLE "appointment_moves" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"appointment_id" uuid NOT NULL,
	"from_start" timestamp with time zone NOT NULL,
	"from_end" timestamp with time zone NOT NULL,
	"from_provider_id" uuid NOT NULL,
	"from_department_id" uuid NOT NULL,
	"to_start" timestamp with time zone NOT NULL,
	"to_end" timestamp with time zone NOT NULL,
	"to_provider_id" uuid NOT NULL,
	"to_department_id" uuid NOT NULL,
	"reason" text,
	"moved_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "appointment_reminders" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"appointment_id" uuid NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"channel" text NOT NULL,
	"language" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_reminders_channel_ck" CHECK ("appointment_reminders"."channel" in ('email', 'sms'))
);
--> statement-breakpoint
CREATE TABLE "appointment_slots" (
	"hospital_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"capacity" smallint NOT NULL,
	"booked" smallint DEFAULT 0 NOT NULL,
	"overbooked" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "appointment_slots_pk" PRIMARY KEY("hospital_id","provider_id","start_at"),
	CONSTRAINT "appointment_slots_capacity_ck" CHECK ("appointment_slots"."booked" <= "appointment_slots"."capacity"),
	CONSTRAINT "appointment_slots_positive_ck" CHECK ("appointment_slots"."booked" >= 0 and "appointment_slots"."overbooked" >= 0)
);
--> statement-breakpoint
CREATE TABLE "appointments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"department_id" uuid NOT NULL,
	"schedule_id" uuid,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"appointment_type" "appointment_type" NOT NULL,
	"reason" text NOT NULL,
	"notes" text,
	"status" "appointment_status" DEFAULT 'booked' NOT NULL,
	"overbooked" boolean DEFAULT false NOT NULL,
	"overbooked_by" uuid,
	"booked_by" uuid,
	"confirmed_at" timestamp with time zone,
	"checked_in_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"no_show_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"cancel_reason" text,
	"admission_id" uuid,
	"reschedule_count" smallint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_times_ck" CHECK ("appointments"."end_at" > "appointments"."start_at"),
	CONSTRAINT "appointments_cancel_reason_ck" CHECK ("appointments"."status" <> 'cancelled' or ("appointments"."cancel_reason" is not null and "appointments"."cancelled_at" is not null)),
	CONSTRAINT "appointments_overbooked_ck" CHECK (not "appointments"."overbooked" or "appointments"."overbooked_by" is not null)
);
--> statement-breakpoint
CREATE TABLE "hospital_holidays" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"date" date NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ics_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "provider_schedules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"department_id" uuid NOT NULL,
	"sessions" jsonb NOT NULL,
	"slot_minutes" smallint NOT NULL,
	"capacity" smallint NOT NULL,
	"types" "appointment_type"[] NOT NULL,
	"valid_from" date NOT NULL,
	"valid_until" date,
	"note" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "provider_schedules_slot_ck" CHECK ("provider_schedules"."slot_minutes" between 5 and 240),
	CONSTRAINT "provider_schedules_capacity_ck" CHECK ("provider_schedules"."capacity" between 1 and 50),
	CONSTRAINT "provider_schedules_validity_ck" CHECK ("provider_schedules"."valid_until" is null or "provider_schedules"."valid_until" >= "provider_schedules"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "schedule_exceptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"kind" "schedule_exception_kind" NOT NULL,
	"reason" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_exceptions_dates_ck" CHECK ("schedule_exceptions"."end_date" >= "schedule_exceptions"."start_date")
);
--> statement-breakpoint
CREATE TABLE "sms_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"to_number" text NOT NULL,
	"body" text NOT NULL,
	"language" text NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"provider_ref" text,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "preferred_language" text;--> statement-breakpoint
ALTER TABLE "hospital_settings" ADD COLUMN "appointment_reminder_time" text DEFAULT '18:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "appointment_moves" ADD CONSTRAINT "appointment_moves_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_moves" ADD CONSTRAINT "appointment_moves_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_moves" ADD CONSTRAINT "appointment_moves_from_provider_id_users_id_fk" FOREIGN KEY ("from_provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_moves" ADD CONSTRAINT "appointment_moves_from_department_id_departments_id_fk" FOREIGN KEY ("from_department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_moves" ADD CONSTRAINT "appointment_moves_to_provider_id_users_id_fk" FOREIGN KEY ("to_provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_moves" ADD CONSTRAINT "appointment_moves_to_department_id_departments_id_fk" FOREIGN KEY ("to_department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_moves" ADD CONSTRAINT "appointment_moves_moved_by_users_id_fk" FOREIGN KEY ("moved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD CONSTRAINT "appointment_reminders_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD CONSTRAINT "appointment_reminders_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_slots" ADD CONSTRAINT "appointment_slots_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_slots" ADD CONSTRAINT "appointment_slots_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_schedule_id_provider_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."provider_schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_overbooked_by_users_id_fk" FOREIGN KEY ("overbooked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_booked_by_users_id_fk" FOREIGN KEY ("booked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospital_holidays" ADD CONSTRAINT "hospital_holidays_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hospital_holidays" ADD CONSTRAINT "hospital_holidays_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ics_links" ADD CONSTRAINT "ics_links_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ics_links" ADD CONSTRAINT "ics_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_schedules" ADD CONSTRAINT "provider_schedules_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_schedules" ADD CONSTRAINT "provider_schedules_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_schedules" ADD CONSTRAINT "provider_schedules_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_schedules" ADD CONSTRAINT "provider_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_schedules" ADD CONSTRAINT "provider_schedules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_exceptions" ADD CONSTRAINT "schedule_exceptions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_outbox" ADD CONSTRAINT "sms_outbox_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_moves_appointment_idx" ON "appointment_moves" USING btree ("appointment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "appointment_reminders_uq" ON "appointment_reminders" USING btree ("appointment_id","start_at","channel");--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_admission_uq" ON "appointments" USING btree ("admission_id") WHERE "appointments"."admission_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_patient_slot_uq" ON "appointments" USING btree ("provider_id","start_at","patient_id") WHERE "appointments"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "appointments_provider_start_idx" ON "appointments" USING btree ("hospital_id","provider_id","start_at");--> statement-breakpoint
CREATE INDEX "appointments_department_start_idx" ON "appointments" USING btree ("hospital_id","department_id","start_at");--> statement-breakpoint
CREATE INDEX "appointments_patient_start_idx" ON "appointments" USING btree ("hospital_id","patient_id","start_at");--> statement-breakpoint
CREATE INDEX "appointments_hospital_start_idx" ON "appointments" USING btree ("hospital_id","start_at");--> statement-breakpoint
CREATE UNIQUE INDEX "hospital_holidays_date_uq" ON "hospital_holidays" USING btree ("hospital_id","date");--> statement-breakpoint
CREATE UNIQUE INDEX "ics_links_token_uq" ON "ics_links" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "ics_links_active_uq" ON "ics_links" USING btree ("hospital_id","user_id") WHERE "ics_links"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "provider_schedules_department_idx" ON "provider_schedules" USING btree ("hospital_id","department_id") WHERE "provider_schedules"."active";--> statement-breakpoint
CREATE INDEX "provider_schedules_provider_idx" ON "provider_schedules" USING btree ("hospital_id","provider_id");--> statement-breakpoint
CREATE INDEX "schedule_exceptions_provider_idx" ON "schedule_exceptions" USING btree ("hospital_id","provider_id","end_date");--> statement-breakpoint
CREATE INDEX "schedule_exceptions_hospital_idx" ON "schedule_exceptions" USING btree ("hospital_id","end_date");--> statement-breakpoint
CREATE INDEX "sms_outbox_unsent_idx" ON "sms_outbox" USING btree ("created_at") WHERE "sms_outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "sms_outbox_hospital_idx" ON "sms_outbox" USING btree ("hospital_id","created_at");--> statement-breakpoint
ALTER TABLE "hospital_settings" ADD CONSTRAINT "hospital_settings_reminder_time_ck" CHECK ("hospital_settings"."appointment_reminder_time" ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$');