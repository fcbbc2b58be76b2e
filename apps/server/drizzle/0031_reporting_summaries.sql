CREATE TABLE "stats_daily_diagnoses" (
	"hospital_id" uuid NOT NULL,
	"department_id" uuid,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"age_group" text NOT NULL,
	"consultations" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_daily_doctors" (
	"hospital_id" uuid NOT NULL,
	"department_id" uuid,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"doctor_id" uuid NOT NULL,
	"consultations" integer NOT NULL,
	"completed" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_daily_exams" (
	"hospital_id" uuid NOT NULL,
	"department_id" uuid,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"exam_id" uuid NOT NULL,
	"requested" integer NOT NULL,
	"validated" integer NOT NULL,
	"cancelled" integer NOT NULL,
	"positive" integer NOT NULL,
	"turnaround_sum" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_daily_flow" (
	"hospital_id" uuid NOT NULL,
	"department_id" uuid,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"level" text,
	"rank" integer,
	"target" integer,
	"visits" integer NOT NULL,
	"seen" integer NOT NULL,
	"within_target" integer NOT NULL,
	"triage_n" integer NOT NULL,
	"triage_sum" double precision NOT NULL,
	"doctor_n" integer NOT NULL,
	"doctor_sum" double precision NOT NULL,
	"end_n" integer NOT NULL,
	"end_sum" double precision NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_daily_pharmacy" (
	"hospital_id" uuid NOT NULL,
	"department_id" uuid,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"presentation_id" uuid NOT NULL,
	"dispensed" integer NOT NULL,
	"dispensings" integer NOT NULL,
	"received" integer NOT NULL,
	"written_off" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_daily_pyramid" (
	"hospital_id" uuid NOT NULL,
	"department_id" uuid,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"age_group" text NOT NULL,
	"sex" text NOT NULL,
	"visits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_daily_visits" (
	"hospital_id" uuid NOT NULL,
	"department_id" uuid,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"admission_type" text NOT NULL,
	"visits" integer NOT NULL,
	"new_visits" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_daily_waits" (
	"hospital_id" uuid NOT NULL,
	"department_id" uuid,
	"grain" text NOT NULL,
	"day" date NOT NULL,
	"level" text,
	"measure" text NOT NULL,
	"bucket" integer NOT NULL,
	"n" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_dirty_days" (
	"hospital_id" uuid NOT NULL,
	"day" date NOT NULL,
	"marked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stats_dirty_days_hospital_id_day_pk" PRIMARY KEY("hospital_id","day")
);
--> statement-breakpoint
CREATE INDEX "stats_daily_diagnoses_idx" ON "stats_daily_diagnoses" USING btree ("hospital_id","grain","day","kind");--> statement-breakpoint
CREATE INDEX "stats_daily_doctors_idx" ON "stats_daily_doctors" USING btree ("hospital_id","grain","day");--> statement-breakpoint
CREATE INDEX "stats_daily_exams_idx" ON "stats_daily_exams" USING btree ("hospital_id","grain","day");--> statement-breakpoint
CREATE INDEX "stats_daily_flow_idx" ON "stats_daily_flow" USING btree ("hospital_id","grain","day");--> statement-breakpoint
CREATE INDEX "stats_daily_pharmacy_idx" ON "stats_daily_pharmacy" USING btree ("hospital_id","grain","day");--> statement-breakpoint
CREATE INDEX "stats_daily_pyramid_idx" ON "stats_daily_pyramid" USING btree ("hospital_id","grain","day");--> statement-breakpoint
CREATE INDEX "stats_daily_visits_idx" ON "stats_daily_visits" USING btree ("hospital_id","grain","day");--> statement-breakpoint
CREATE INDEX "stats_daily_waits_idx" ON "stats_daily_waits" USING btree ("hospital_id","grain","day");--> statement-breakpoint
CREATE INDEX "consultations_admission_idx" ON "consultations" USING btree ("admission_id");--> statement-breakpoint
CREATE INDEX "stock_movements_hospital_at_idx" ON "stock_movements" USING btree ("hospital_id","at");--> statement-breakpoint
CREATE INDEX "exam_orders_hospital_requested_idx" ON "exam_orders" USING btree ("hospital_id","requested_at");