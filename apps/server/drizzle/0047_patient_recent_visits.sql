DROP INDEX "admissions_patient_idx";--> statement-breakpoint
CREATE INDEX "admissions_patient_idx" ON "admissions" USING btree ("patient_id","admitted_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);
