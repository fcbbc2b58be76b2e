-- Issue 37 (decision 0068): every set of vital signs carries its NEWS2, wherever it was recorded (triage,
-- consultation, ward), so that the one series (care/vital-signs.repository.ts) can show and sort by it.
ALTER TABLE "consultations" ADD COLUMN "news2_score" smallint;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "news2" jsonb;--> statement-breakpoint
ALTER TABLE "triage_records" ADD COLUMN "news2_score" smallint;--> statement-breakpoint
ALTER TABLE "triage_records" ADD COLUMN "news2" jsonb;
