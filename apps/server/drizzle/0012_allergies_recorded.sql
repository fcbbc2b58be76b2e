ALTER TABLE "patients" ADD COLUMN "allergies_recorded" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Patients registered with allergies were asked; those without are "not asked" (issue 25): nobody can tell now.
UPDATE "patients" SET "allergies_recorded" = true WHERE cardinality("allergies") > 0;
