CREATE TABLE "document_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"language" text NOT NULL,
	"paper" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"body" text NOT NULL,
	"based_on" uuid,
	"is_active" boolean DEFAULT false NOT NULL,
	"archived_at" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid NOT NULL,
	"updated_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_templates_kind_ck" CHECK ("document_templates"."kind" in ('consultation_report','medical_certificate','sick_leave_certificate','referral_letter','prescription',
   'discharge_summary','exam_results_report','invoice','receipt','free_letter')),
	CONSTRAINT "document_templates_language_ck" CHECK ("document_templates"."language" in ('fr', 'en')),
	CONSTRAINT "document_templates_paper_ck" CHECK ("document_templates"."paper" in ('A4', 'A5')),
	CONSTRAINT "document_templates_active_ck" CHECK (not ("document_templates"."is_active" and "document_templates"."archived_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"number" text NOT NULL,
	"kind" text NOT NULL,
	"language" text NOT NULL,
	"paper" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"template_name" text NOT NULL,
	"template_shipped" boolean NOT NULL,
	"source_type" text NOT NULL,
	"source_id" uuid NOT NULL,
	"body" text NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"verification_token" text NOT NULL,
	"verification_code" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"issued_on" date NOT NULL,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"cancel_reason" text,
	CONSTRAINT "documents_kind_ck" CHECK ("documents"."kind" in ('consultation_report','medical_certificate','sick_leave_certificate','referral_letter','prescription',
   'discharge_summary','exam_results_report','invoice','receipt','free_letter')),
	CONSTRAINT "documents_source_ck" CHECK ("documents"."source_type" in ('consultation', 'prescription', 'exam', 'hospitalization', 'patient')),
	CONSTRAINT "documents_cancel_ck" CHECK (("documents"."cancelled_at" is null) = ("documents"."cancelled_by" is null) and ("documents"."cancelled_at" is null) = ("documents"."cancel_reason" is null))
);
--> statement-breakpoint
CREATE TABLE "patient_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"category" text NOT NULL,
	"document_date" date,
	"description" text,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage_key" text NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"delete_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "patient_documents_category_ck" CHECK ("patient_documents"."category" in ('id_document', 'referral_letter', 'previous_results', 'imaging_report', 'consent_form', 'insurance', 'other')),
	CONSTRAINT "patient_documents_type_ck" CHECK ("patient_documents"."content_type" in ('image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf')),
	CONSTRAINT "patient_documents_delete_ck" CHECK (("patient_documents"."deleted_at" is null) = ("patient_documents"."delete_reason" is null) and ("patient_documents"."deleted_at" is null) = ("patient_documents"."deleted_by" is null))
);
--> statement-breakpoint
ALTER TABLE "hospital_settings" ADD COLUMN "upload_max_mb" smallint DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "document_templates" ADD CONSTRAINT "document_templates_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_templates" ADD CONSTRAINT "document_templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_templates" ADD CONSTRAINT "document_templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_templates_active_uq" ON "document_templates" USING btree ("hospital_id","kind","language") WHERE "document_templates"."is_active";--> statement-breakpoint
CREATE INDEX "document_templates_hospital_idx" ON "document_templates" USING btree ("hospital_id","kind","language","name");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_number_uq" ON "documents" USING btree ("hospital_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_token_uq" ON "documents" USING btree ("verification_token");--> statement-breakpoint
CREATE INDEX "documents_hospital_idx" ON "documents" USING btree ("hospital_id","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_hospital_kind_idx" ON "documents" USING btree ("hospital_id","kind","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_patient_idx" ON "documents" USING btree ("patient_id","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_author_idx" ON "documents" USING btree ("author_id","issued_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "documents_source_idx" ON "documents" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "patient_documents_hospital_idx" ON "patient_documents" USING btree ("hospital_id","uploaded_at" DESC NULLS LAST) WHERE "patient_documents"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "patient_documents_patient_idx" ON "patient_documents" USING btree ("patient_id","uploaded_at" DESC NULLS LAST) WHERE "patient_documents"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "hospital_settings" ADD CONSTRAINT "hospital_settings_upload_ck" CHECK ("hospital_settings"."upload_max_mb" between 1 and 50);--> statement-breakpoint
-- An issued document is immutable (its PDF is stored once and printed again as it is): the only change allowed
-- is its cancellation, once (cancelled_at, cancelled_by, cancel_reason from null to set); it is never deleted.
CREATE OR REPLACE FUNCTION documents_guard_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.cancelled_at IS NULL AND NEW.cancelled_at IS NOT NULL
       AND (to_jsonb(NEW) - 'cancelled_at' - 'cancelled_by' - 'cancel_reason')
         = (to_jsonb(OLD) - 'cancelled_at' - 'cancelled_by' - 'cancel_reason') THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'an issued document is immutable' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER documents_immutable
  BEFORE UPDATE OR DELETE ON documents
  FOR EACH ROW EXECUTE FUNCTION documents_guard_change();
--> statement-breakpoint
CREATE TRIGGER documents_no_truncate
  BEFORE TRUNCATE ON documents
  FOR EACH STATEMENT EXECUTE FUNCTION documents_guard_change();
