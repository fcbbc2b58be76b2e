-- The invoice list's order (`created_at desc, id desc`) read straight from its indexes (issue 21's bench, decision
-- 0045): `desc` is `nulls first` in SQL, and the former indexes (`desc nulls last`, `id` ascending) could not give
-- it, so a week of a million invoices was sorted whole for a page of 20.
DROP INDEX "invoices_hospital_created_idx";--> statement-breakpoint
DROP INDEX "invoices_patient_idx";--> statement-breakpoint
CREATE INDEX "invoices_hospital_created_idx" ON "invoices" USING btree ("hospital_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "invoices_patient_idx" ON "invoices" USING btree ("patient_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);