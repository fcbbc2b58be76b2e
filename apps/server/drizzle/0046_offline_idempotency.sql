-- Issue 40: records made offline are queued on the device and sent again until answered; each carries the
-- client's key, unique per hospital, so that a set of vitals or a task's record sent twice is kept once.
ALTER TABLE "care_vitals" ADD COLUMN "idempotency_key" uuid;--> statement-breakpoint
ALTER TABLE "care_executions" ADD COLUMN "record_key" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "care_vitals_key_uq" ON "care_vitals" USING btree ("hospital_id","idempotency_key") WHERE "care_vitals"."idempotency_key" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "care_executions_record_key_uq" ON "care_executions" USING btree ("hospital_id","record_key") WHERE "care_executions"."record_key" is not null;
