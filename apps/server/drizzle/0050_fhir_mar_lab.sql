-- Issue 39 (decision 0083): FHIR MedicationAdministration searches by patient and across the hospital are indexed.
CREATE INDEX "medication_administrations_patient_idx" ON "medication_administrations" USING btree ("patient_id","scheduled_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "medication_administrations_hospital_idx" ON "medication_administrations" USING btree ("hospital_id","scheduled_at" DESC NULLS LAST);--> statement-breakpoint
-- The LOINC code of an exam as a whole (DiagnosticReport.code), where it is certain; the analytes' codes are in
-- the catalogue's fields (loaded at start from exam-catalogue.data.ts, which carries these codes too).
ALTER TABLE "exam_catalogue" ADD COLUMN "loinc" text;--> statement-breakpoint
UPDATE "exam_catalogue" SET "loinc" = v.loinc
  FROM (VALUES ('NFS', '58410-2'), ('GLY', '14771-0'), ('CREA', '14682-9'), ('CRP', '1988-5')) AS v(code, loinc)
  WHERE "exam_catalogue"."code" = v.code;
