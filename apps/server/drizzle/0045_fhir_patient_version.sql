-- Issue 39: the patient record's version (FHIR meta.versionId, ETag, If-Match), bumped by every change.
ALTER TABLE "patients" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
CREATE INDEX "patients_hospital_updated_idx" ON "patients" USING btree ("hospital_id","updated_at");--> statement-breakpoint
CREATE INDEX "admissions_hospital_updated_idx" ON "admissions" USING btree ("hospital_id","updated_at");--> statement-breakpoint
CREATE INDEX "diagnoses_hospital_created_idx" ON "consultation_diagnoses" USING btree ("hospital_id","created_at" DESC NULLS LAST);
