-- How many visits each patient has, kept by the database (issue 38, goal 4; docs/decisions/0084): the record's
-- "see all visits (n)" reads one row instead of counting the patient's visits on every read (500 index entries for
-- a 500-visit history). Every visit counts, whatever its status, as the count it replaces did. A trigger on
-- admissions keeps it in the writer's transaction: +1 for a visit added, -1 for one removed, and both when a visit
-- moves to another patient (a merge of duplicates). No row: no visit.
CREATE TABLE "patient_visit_counts" (
	"patient_id" uuid PRIMARY KEY NOT NULL,
	"visits" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "patient_visit_counts" ADD CONSTRAINT "patient_visit_counts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
INSERT INTO patient_visit_counts (patient_id, visits)
  SELECT patient_id, count(*)::int FROM admissions GROUP BY patient_id;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION greensen_visit_counts() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    -- An update, never an insert: when the patient itself is being deleted, its row is already gone.
    UPDATE patient_visit_counts SET visits = visits - 1 WHERE patient_id = OLD.patient_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO patient_visit_counts (patient_id, visits) VALUES (NEW.patient_id, 1)
      ON CONFLICT (patient_id) DO UPDATE SET visits = patient_visit_counts.visits + 1;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER admissions_visit_counts_insert_delete AFTER INSERT OR DELETE ON admissions
  FOR EACH ROW EXECUTE FUNCTION greensen_visit_counts();
--> statement-breakpoint
CREATE TRIGGER admissions_visit_counts_update AFTER UPDATE OF patient_id ON admissions
  FOR EACH ROW WHEN (OLD.patient_id IS DISTINCT FROM NEW.patient_id)
  EXECUTE FUNCTION greensen_visit_counts();
