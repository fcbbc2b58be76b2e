-- Issue 37 (decision 0068): every set of vital signs carries its NEWS2, wherever it was recorded (triage,
-- consultation, ward), so that the one series (care/vital-signs.repository.ts) can show and sort by it.
ALTER TABLE "consultations" ADD COLUMN "news2_score" smallint;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "news2" jsonb;--> statement-breakpoint
ALTER TABLE "triage_records" ADD COLUMN "news2_score" smallint;--> statement-breakpoint
ALTER TABLE "triage_records" ADD COLUMN "news2" jsonb;
--> statement-breakpoint
-- Issue 37 (decision 0069): a placement that breaks a ward's or room's guardrail is kept with the guardrails the
-- charge nurse overrode and her reason (both or neither).
ALTER TABLE "bed_assignments" ADD COLUMN "overridden" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "bed_assignments" ADD COLUMN "override_reason" text;--> statement-breakpoint
ALTER TABLE "bed_assignments" ADD CONSTRAINT "bed_assignments_override_ck" CHECK ((cardinality("bed_assignments"."overridden") = 0) = ("bed_assignments"."override_reason" is null));
