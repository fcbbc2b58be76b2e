CREATE TABLE "dictation_recordings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"language" text NOT NULL,
	"context" text,
	"size_bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"typed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dictation_recordings_language_ck" CHECK ("dictation_recordings"."language" in ('fr', 'en'))
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"patient_id" uuid,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "notes_title_ck" CHECK (length("notes"."title") between 1 and 200),
	CONSTRAINT "notes_body_ck" CHECK (length("notes"."body") <= 20000)
);
--> statement-breakpoint
ALTER TABLE "patient_documents" DROP CONSTRAINT "patient_documents_category_ck";--> statement-breakpoint
ALTER TABLE "patient_documents" DROP CONSTRAINT "patient_documents_type_ck";--> statement-breakpoint
ALTER TABLE "hospital_settings" ADD COLUMN "dictation_browser_enabled" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "dictation_recordings" ADD CONSTRAINT "dictation_recordings_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictation_recordings" ADD CONSTRAINT "dictation_recordings_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictation_recordings" ADD CONSTRAINT "dictation_recordings_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictation_recordings" ADD CONSTRAINT "dictation_recordings_document_id_patient_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."patient_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dictation_recordings_author_idx" ON "dictation_recordings" USING btree ("hospital_id","author_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notes_personal_idx" ON "notes" USING btree ("hospital_id","author_id","pinned" DESC NULLS LAST,"updated_at" DESC NULLS LAST) WHERE "notes"."patient_id" is null and "notes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "notes_patient_idx" ON "notes" USING btree ("patient_id","pinned" DESC NULLS LAST,"updated_at" DESC NULLS LAST) WHERE "notes"."patient_id" is not null and "notes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "notes_tags_idx" ON "notes" USING gin ("tags");--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_category_ck" CHECK ("patient_documents"."category" in ('id_document', 'referral_letter', 'previous_results', 'imaging_report', 'consent_form', 'insurance', 'dictation', 'other'));--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_type_ck" CHECK ("patient_documents"."content_type" in ('image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf', 'audio/webm', 'audio/ogg', 'audio/wav', 'audio/mp4'));