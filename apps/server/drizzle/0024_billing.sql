CREATE TYPE "public"."act_category" AS ENUM('consultation', 'procedure', 'imaging', 'laboratory', 'surgery', 'delivery', 'bed_day', 'nursing', 'medicine', 'other');--> statement-breakpoint
CREATE TYPE "public"."act_source" AS ENUM('manual', 'consultation', 'exam', 'bed_day', 'dispensation');--> statement-breakpoint
CREATE TYPE "public"."cash_session_status" AS ENUM('open', 'closed');--> statement-breakpoint
CREATE TYPE "public"."invoice_kind" AS ENUM('invoice', 'credit_note');--> statement-breakpoint
CREATE TYPE "public"."invoice_status" AS ENUM('draft', 'issued', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."mobile_money_operator" AS ENUM('orange_money', 'mtn_momo', 'airtel_money', 'mpesa', 'wave', 'moov_money');--> statement-breakpoint
CREATE TYPE "public"."payer_category" AS ENUM('private', 'insured', 'staff', 'indigent');--> statement-breakpoint
CREATE TYPE "public"."payer_kind" AS ENUM('insurer', 'mutual', 'employer', 'free_care');--> statement-breakpoint
CREATE TYPE "public"."payment_kind" AS ENUM('payment', 'refund');--> statement-breakpoint
CREATE TYPE "public"."payment_method" AS ENUM('cash', 'card', 'bank_transfer', 'cheque', 'mobile_money');--> statement-breakpoint
CREATE TABLE "act_tariffs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"act_id" uuid NOT NULL,
	"payer_category" "payer_category" NOT NULL,
	"price" bigint NOT NULL,
	"currency" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "act_tariffs_price_ck" CHECK ("act_tariffs"."price" >= 0),
	CONSTRAINT "act_tariffs_validity_ck" CHECK ("act_tariffs"."valid_to" is null or "act_tariffs"."valid_to" >= "act_tariffs"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "cash_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"cashier_id" uuid NOT NULL,
	"status" "cash_session_status" DEFAULT 'open' NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"floats" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"counted" jsonb,
	"note" text,
	CONSTRAINT "cash_sessions_closed_ck" CHECK (("cash_sessions"."status" = 'closed') = ("cash_sessions"."closed_at" is not null and "cash_sessions"."counted" is not null))
);
--> statement-breakpoint
CREATE TABLE "invoice_lines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"act_id" uuid NOT NULL,
	"code" text NOT NULL,
	"label_fr" text NOT NULL,
	"label_en" text NOT NULL,
	"category" "act_category" NOT NULL,
	"performed_act_id" uuid,
	"credited_line_id" uuid,
	"quantity" integer NOT NULL,
	"unit_price" bigint NOT NULL,
	"discount" bigint DEFAULT 0 NOT NULL,
	"discount_reason" text,
	"discount_by" uuid,
	"total" bigint NOT NULL,
	"payer_share" bigint DEFAULT 0 NOT NULL,
	"patient_share" bigint NOT NULL,
	"removed_at" timestamp with time zone,
	"removed_by" uuid,
	"removed_reason" text,
	CONSTRAINT "invoice_lines_quantity_ck" CHECK ("invoice_lines"."quantity" > 0),
	CONSTRAINT "invoice_lines_discount_ck" CHECK ("invoice_lines"."discount" >= 0 and "invoice_lines"."discount" <= abs("invoice_lines"."quantity" * "invoice_lines"."unit_price")),
	CONSTRAINT "invoice_lines_discount_reason_ck" CHECK ("invoice_lines"."discount" = 0 or "invoice_lines"."discount_reason" is not null),
	CONSTRAINT "invoice_lines_total_ck" CHECK (("invoice_lines"."removed_at" is not null and "invoice_lines"."total" = 0) or ("invoice_lines"."removed_at" is null and "invoice_lines"."total" = "invoice_lines"."quantity" * "invoice_lines"."unit_price" - sign("invoice_lines"."unit_price") * "invoice_lines"."discount")),
	CONSTRAINT "invoice_lines_shares_ck" CHECK ("invoice_lines"."payer_share" + "invoice_lines"."patient_share" = "invoice_lines"."total"),
	CONSTRAINT "invoice_lines_removed_ck" CHECK (("invoice_lines"."removed_at" is null) = ("invoice_lines"."removed_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"number" text,
	"kind" "invoice_kind" DEFAULT 'invoice' NOT NULL,
	"status" "invoice_status" DEFAULT 'draft' NOT NULL,
	"patient_id" uuid NOT NULL,
	"admission_id" uuid,
	"hospitalization_id" uuid,
	"currency" text NOT NULL,
	"payer_category" "payer_category" DEFAULT 'private' NOT NULL,
	"payer_id" uuid,
	"coverage_id" uuid,
	"member_number" text,
	"total" bigint DEFAULT 0 NOT NULL,
	"payer_share" bigint DEFAULT 0 NOT NULL,
	"patient_share" bigint DEFAULT 0 NOT NULL,
	"paid" bigint DEFAULT 0 NOT NULL,
	"credited_patient_share" bigint DEFAULT 0 NOT NULL,
	"credited_invoice_id" uuid,
	"credit_reason" text,
	"issued_at" timestamp with time zone,
	"issued_by" uuid,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"cancel_reason" text,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_origin_ck" CHECK (("invoices"."admission_id" is null) <> ("invoices"."hospitalization_id" is null)),
	CONSTRAINT "invoices_issued_ck" CHECK (("invoices"."status" = 'issued') = ("invoices"."number" is not null and "invoices"."issued_at" is not null)),
	CONSTRAINT "invoices_cancel_ck" CHECK (("invoices"."status" = 'cancelled') = ("invoices"."cancelled_at" is not null)),
	CONSTRAINT "invoices_credit_ck" CHECK (("invoices"."kind" = 'credit_note') = ("invoices"."credited_invoice_id" is not null) and ("invoices"."kind" = 'invoice' or "invoices"."status" <> 'cancelled')),
	CONSTRAINT "invoices_shares_ck" CHECK ("invoices"."payer_share" + "invoices"."patient_share" = "invoices"."total")
);
--> statement-breakpoint
CREATE TABLE "medical_acts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"code" text NOT NULL,
	"label_fr" text NOT NULL,
	"label_en" text NOT NULL,
	"category" "act_category" NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"auto_source" text,
	"exam_id" uuid,
	"presentation_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medical_acts_auto_source_ck" CHECK ("medical_acts"."auto_source" is null or "medical_acts"."auto_source" in ('consultation', 'bed_day'))
);
--> statement-breakpoint
CREATE TABLE "patient_coverages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"payer_id" uuid NOT NULL,
	"member_number" text NOT NULL,
	"valid_from" date NOT NULL,
	"valid_to" date,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_coverages_validity_ck" CHECK ("patient_coverages"."valid_to" is null or "patient_coverages"."valid_to" >= "patient_coverages"."valid_from")
);
--> statement-breakpoint
CREATE TABLE "payer_rules" (
	"id" uuid PRIMARY KEY NOT NULL,
	"payer_id" uuid NOT NULL,
	"category" "act_category" NOT NULL,
	"rate_percent" smallint NOT NULL,
	"ceiling" bigint,
	CONSTRAINT "payer_rules_rate_ck" CHECK ("payer_rules"."rate_percent" between 0 and 100),
	CONSTRAINT "payer_rules_ceiling_ck" CHECK ("payer_rules"."ceiling" is null or "payer_rules"."ceiling" >= 0)
);
--> statement-breakpoint
CREATE TABLE "payers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"kind" "payer_kind" NOT NULL,
	"payer_category" "payer_category" DEFAULT 'insured' NOT NULL,
	"contact" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"max_age_years" smallint,
	"eligible_sex" "sex",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payers_age_ck" CHECK ("payers"."max_age_years" is null or "payers"."max_age_years" between 0 and 120)
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"cash_session_id" uuid NOT NULL,
	"kind" "payment_kind" DEFAULT 'payment' NOT NULL,
	"method" "payment_method" NOT NULL,
	"operator" "mobile_money_operator",
	"phone" text,
	"reference" text,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"rate" numeric(20, 8),
	"amount_invoice" bigint NOT NULL,
	"refunded_payment_id" uuid,
	"note" text,
	"reason" text,
	"received_by" uuid NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_sign_ck" CHECK (("payments"."kind" = 'payment' and "payments"."amount" > 0 and "payments"."amount_invoice" >= 0 and "payments"."refunded_payment_id" is null) or ("payments"."kind" = 'refund' and "payments"."amount" < 0 and "payments"."amount_invoice" <= 0 and "payments"."refunded_payment_id" is not null and "payments"."reason" is not null)),
	CONSTRAINT "payments_mobile_ck" CHECK ("payments"."method" <> 'mobile_money' or ("payments"."operator" is not null and "payments"."phone" is not null and "payments"."reference" is not null)),
	CONSTRAINT "payments_operator_ck" CHECK ("payments"."operator" is null or "payments"."method" = 'mobile_money'),
	CONSTRAINT "payments_rate_ck" CHECK ("payments"."rate" is null or "payments"."rate" > 0)
);
--> statement-breakpoint
CREATE TABLE "performed_acts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"act_id" uuid NOT NULL,
	"admission_id" uuid,
	"hospitalization_id" uuid,
	"quantity" integer DEFAULT 1 NOT NULL,
	"source" "act_source" NOT NULL,
	"source_ref" text,
	"performed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"performed_by" uuid,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "performed_acts_quantity_ck" CHECK ("performed_acts"."quantity" > 0),
	CONSTRAINT "performed_acts_origin_ck" CHECK (("performed_acts"."admission_id" is null) <> ("performed_acts"."hospitalization_id" is null)),
	CONSTRAINT "performed_acts_source_ck" CHECK (("performed_acts"."source" = 'manual') = ("performed_acts"."source_ref" is null)),
	CONSTRAINT "performed_acts_cancel_ck" CHECK (("performed_acts"."cancelled_at" is null) = ("performed_acts"."cancel_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "receipts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"number" text NOT NULL,
	"payment_id" uuid NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "act_tariffs" ADD CONSTRAINT "act_tariffs_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "act_tariffs" ADD CONSTRAINT "act_tariffs_act_id_medical_acts_id_fk" FOREIGN KEY ("act_id") REFERENCES "public"."medical_acts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "act_tariffs" ADD CONSTRAINT "act_tariffs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_sessions" ADD CONSTRAINT "cash_sessions_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_sessions" ADD CONSTRAINT "cash_sessions_cashier_id_users_id_fk" FOREIGN KEY ("cashier_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_act_id_medical_acts_id_fk" FOREIGN KEY ("act_id") REFERENCES "public"."medical_acts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_performed_act_id_performed_acts_id_fk" FOREIGN KEY ("performed_act_id") REFERENCES "public"."performed_acts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_discount_by_users_id_fk" FOREIGN KEY ("discount_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_lines" ADD CONSTRAINT "invoice_lines_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_hospitalization_id_hospitalizations_id_fk" FOREIGN KEY ("hospitalization_id") REFERENCES "public"."hospitalizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payer_id_payers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."payers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_coverage_id_patient_coverages_id_fk" FOREIGN KEY ("coverage_id") REFERENCES "public"."patient_coverages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_issued_by_users_id_fk" FOREIGN KEY ("issued_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medical_acts" ADD CONSTRAINT "medical_acts_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medical_acts" ADD CONSTRAINT "medical_acts_exam_id_exam_catalogue_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."exam_catalogue"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medical_acts" ADD CONSTRAINT "medical_acts_presentation_id_medication_presentations_id_fk" FOREIGN KEY ("presentation_id") REFERENCES "public"."medication_presentations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_coverages" ADD CONSTRAINT "patient_coverages_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_coverages" ADD CONSTRAINT "patient_coverages_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_coverages" ADD CONSTRAINT "patient_coverages_payer_id_payers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."payers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_coverages" ADD CONSTRAINT "patient_coverages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payer_rules" ADD CONSTRAINT "payer_rules_payer_id_payers_id_fk" FOREIGN KEY ("payer_id") REFERENCES "public"."payers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payers" ADD CONSTRAINT "payers_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_cash_session_id_cash_sessions_id_fk" FOREIGN KEY ("cash_session_id") REFERENCES "public"."cash_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_received_by_users_id_fk" FOREIGN KEY ("received_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performed_acts" ADD CONSTRAINT "performed_acts_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performed_acts" ADD CONSTRAINT "performed_acts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performed_acts" ADD CONSTRAINT "performed_acts_act_id_medical_acts_id_fk" FOREIGN KEY ("act_id") REFERENCES "public"."medical_acts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performed_acts" ADD CONSTRAINT "performed_acts_admission_id_admissions_id_fk" FOREIGN KEY ("admission_id") REFERENCES "public"."admissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performed_acts" ADD CONSTRAINT "performed_acts_hospitalization_id_hospitalizations_id_fk" FOREIGN KEY ("hospitalization_id") REFERENCES "public"."hospitalizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performed_acts" ADD CONSTRAINT "performed_acts_performed_by_users_id_fk" FOREIGN KEY ("performed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "performed_acts" ADD CONSTRAINT "performed_acts_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipts" ADD CONSTRAINT "receipts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "act_tariffs_act_idx" ON "act_tariffs" USING btree ("act_id","payer_category","valid_from" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "cash_sessions_open_uq" ON "cash_sessions" USING btree ("hospital_id","cashier_id") WHERE "cash_sessions"."status" = 'open';--> statement-breakpoint
CREATE INDEX "cash_sessions_hospital_idx" ON "cash_sessions" USING btree ("hospital_id","opened_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "cash_sessions_cashier_idx" ON "cash_sessions" USING btree ("cashier_id","opened_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_position_uq" ON "invoice_lines" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_lines_performed_uq" ON "invoice_lines" USING btree ("performed_act_id") WHERE "invoice_lines"."performed_act_id" is not null and "invoice_lines"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "invoice_lines_credited_idx" ON "invoice_lines" USING btree ("credited_line_id") WHERE "invoice_lines"."credited_line_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_uq" ON "invoices" USING btree ("hospital_id","number") WHERE "invoices"."number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_admission_uq" ON "invoices" USING btree ("admission_id") WHERE "invoices"."kind" = 'invoice' and "invoices"."status" <> 'cancelled' and "invoices"."admission_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_hospitalization_uq" ON "invoices" USING btree ("hospitalization_id") WHERE "invoices"."kind" = 'invoice' and "invoices"."status" <> 'cancelled' and "invoices"."hospitalization_id" is not null;--> statement-breakpoint
CREATE INDEX "invoices_hospital_created_idx" ON "invoices" USING btree ("hospital_id","created_at" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "invoices_hospital_status_idx" ON "invoices" USING btree ("hospital_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_patient_idx" ON "invoices" USING btree ("patient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_credited_idx" ON "invoices" USING btree ("credited_invoice_id") WHERE "invoices"."credited_invoice_id" is not null;--> statement-breakpoint
CREATE INDEX "invoices_payer_issued_idx" ON "invoices" USING btree ("payer_id","issued_at") WHERE "invoices"."payer_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "medical_acts_code_uq" ON "medical_acts" USING btree ("hospital_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "medical_acts_auto_source_uq" ON "medical_acts" USING btree ("hospital_id","auto_source") WHERE "medical_acts"."auto_source" is not null and "medical_acts"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "medical_acts_exam_uq" ON "medical_acts" USING btree ("hospital_id","exam_id") WHERE "medical_acts"."exam_id" is not null and "medical_acts"."is_active";--> statement-breakpoint
CREATE UNIQUE INDEX "medical_acts_presentation_uq" ON "medical_acts" USING btree ("hospital_id","presentation_id") WHERE "medical_acts"."presentation_id" is not null and "medical_acts"."is_active";--> statement-breakpoint
CREATE INDEX "medical_acts_category_idx" ON "medical_acts" USING btree ("hospital_id","category","code");--> statement-breakpoint
CREATE UNIQUE INDEX "patient_coverages_uq" ON "patient_coverages" USING btree ("patient_id","payer_id","valid_from");--> statement-breakpoint
CREATE INDEX "patient_coverages_patient_idx" ON "patient_coverages" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "patient_coverages_payer_idx" ON "patient_coverages" USING btree ("payer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payer_rules_category_uq" ON "payer_rules" USING btree ("payer_id","category");--> statement-breakpoint
CREATE UNIQUE INDEX "payers_code_uq" ON "payers" USING btree ("hospital_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_mobile_reference_uq" ON "payments" USING btree ("hospital_id","operator","reference") WHERE "payments"."kind" = 'payment' and "payments"."method" = 'mobile_money';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_reference_uq" ON "payments" USING btree ("hospital_id","method","reference") WHERE "payments"."kind" = 'payment' and "payments"."method" <> 'mobile_money' and "payments"."reference" is not null;--> statement-breakpoint
CREATE INDEX "payments_invoice_idx" ON "payments" USING btree ("invoice_id","received_at");--> statement-breakpoint
CREATE INDEX "payments_session_idx" ON "payments" USING btree ("cash_session_id");--> statement-breakpoint
CREATE INDEX "payments_refunded_idx" ON "payments" USING btree ("refunded_payment_id") WHERE "payments"."refunded_payment_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_hospital_time_idx" ON "payments" USING btree ("hospital_id","received_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "performed_acts_source_uq" ON "performed_acts" USING btree ("hospital_id","source","source_ref") WHERE "performed_acts"."source_ref" is not null;--> statement-breakpoint
CREATE INDEX "performed_acts_admission_idx" ON "performed_acts" USING btree ("admission_id") WHERE "performed_acts"."admission_id" is not null;--> statement-breakpoint
CREATE INDEX "performed_acts_hospitalization_idx" ON "performed_acts" USING btree ("hospitalization_id") WHERE "performed_acts"."hospitalization_id" is not null;--> statement-breakpoint
CREATE INDEX "performed_acts_patient_idx" ON "performed_acts" USING btree ("patient_id","performed_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_number_uq" ON "receipts" USING btree ("hospital_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "receipts_payment_uq" ON "receipts" USING btree ("payment_id");--> statement-breakpoint
-- Hand-written (issue 21, decision 0027): what drizzle cannot express.
-- An act's tariffs for one payer category never overlap in time (valid_to inclusive, null: open-ended).
CREATE EXTENSION IF NOT EXISTS btree_gist;
--> statement-breakpoint
ALTER TABLE "act_tariffs" ADD CONSTRAINT "act_tariffs_no_overlap" EXCLUDE USING gist (
  "act_id" WITH =,
  "payer_category" WITH =,
  daterange("valid_from", "valid_to", '[]') WITH &&
);
--> statement-breakpoint
-- The lines of an invoice change only while it is a draft (an issued invoice is corrected by a credit note).
CREATE OR REPLACE FUNCTION invoice_lines_draft_only() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  s invoice_status;
BEGIN
  SELECT status INTO s FROM invoices WHERE id = COALESCE(NEW.invoice_id, OLD.invoice_id);
  IF s IS DISTINCT FROM 'draft' THEN
    RAISE EXCEPTION 'invoice lines change only on a draft invoice' USING ERRCODE = 'check_violation';
  END IF;
  RETURN COALESCE(NEW, OLD);
END;
$$;
--> statement-breakpoint
CREATE TRIGGER invoice_lines_draft_only
  BEFORE INSERT OR UPDATE OR DELETE ON invoice_lines
  FOR EACH ROW EXECUTE FUNCTION invoice_lines_draft_only();
--> statement-breakpoint
-- An issued (or cancelled) invoice keeps its number, patient, amounts and state; only what it received moves
-- (payments, credit notes). Invoices are never deleted.
CREATE OR REPLACE FUNCTION invoices_freeze_issued() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'invoices are never deleted' USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.status <> 'draft' AND (
    NEW.status IS DISTINCT FROM OLD.status OR NEW.number IS DISTINCT FROM OLD.number
    OR NEW.kind IS DISTINCT FROM OLD.kind OR NEW.patient_id IS DISTINCT FROM OLD.patient_id
    OR NEW.currency IS DISTINCT FROM OLD.currency OR NEW.total IS DISTINCT FROM OLD.total
    OR NEW.payer_share IS DISTINCT FROM OLD.payer_share OR NEW.patient_share IS DISTINCT FROM OLD.patient_share
    OR NEW.payer_id IS DISTINCT FROM OLD.payer_id OR NEW.issued_at IS DISTINCT FROM OLD.issued_at
    OR NEW.payer_category IS DISTINCT FROM OLD.payer_category
  ) THEN
    RAISE EXCEPTION 'an issued invoice cannot change' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER invoices_freeze_issued
  BEFORE UPDATE OR DELETE ON invoices
  FOR EACH ROW EXECUTE FUNCTION invoices_freeze_issued();
--> statement-breakpoint
-- Payments are append-only (a refund is a new, negative row), and each is taken in an open cash session of its
-- cashier: the share lock makes a concurrent closing wait, and a payment after the closing finds it closed.
CREATE OR REPLACE FUNCTION payments_refuse_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'payments are append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payments_no_update_delete
  BEFORE UPDATE OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_refuse_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION payments_need_open_session() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM cash_sessions
    WHERE id = NEW.cash_session_id AND status = 'open' AND hospital_id = NEW.hospital_id
      AND cashier_id = NEW.received_by
    FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'a payment needs an open cash session of its cashier' USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER payments_need_open_session
  BEFORE INSERT ON payments
  FOR EACH ROW EXECUTE FUNCTION payments_need_open_session();
