-- The reporting summaries (docs/decisions/0038-reporting-summaries.md) are kept up to date by marking the days
-- a change touches: every write to what a summary reads inserts (hospital, day in the hospital's zone) into
-- stats_dirty_days in the writer's transaction; the stats service rebuilds the marked days before it reads
-- (and a recurring job rebuilds them in the background), so a figure is never older than the last commit.
CREATE OR REPLACE FUNCTION greensen_stats_mark(hospital uuid, at timestamptz) RETURNS void
  LANGUAGE plpgsql AS $$
BEGIN
  IF hospital IS NULL OR at IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO stats_dirty_days (hospital_id, day)
  SELECT h.id, (at AT TIME ZONE h.time_zone)::date FROM hospitals h WHERE h.id = hospital
  ON CONFLICT DO NOTHING;
END;
$$;
--> statement-breakpoint
-- A visit: its day; and the day of the patient's next visit, whose "new patient" flag depends on this one.
CREATE OR REPLACE FUNCTION greensen_stats_admissions() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT * FROM (SELECT OLD.*) o WHERE TG_OP <> 'INSERT'
    UNION ALL SELECT * FROM (SELECT NEW.*) n WHERE TG_OP <> 'DELETE' LOOP
    PERFORM greensen_stats_mark(r.hospital_id, r.admitted_at);
    PERFORM greensen_stats_mark(r.hospital_id, (SELECT min(b.admitted_at) FROM admissions b
      WHERE b.patient_id = r.patient_id AND b.hospital_id = r.hospital_id AND b.admitted_at > r.admitted_at
        AND b.status <> 'cancelled'));
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER admissions_stats_insert_delete AFTER INSERT OR DELETE ON admissions
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_admissions();
--> statement-breakpoint
CREATE TRIGGER admissions_stats_update AFTER UPDATE ON admissions
  FOR EACH ROW WHEN (
    (OLD.status IS DISTINCT FROM NEW.status AND (OLD.status = 'cancelled' OR NEW.status = 'cancelled'))
    OR OLD.admitted_at IS DISTINCT FROM NEW.admitted_at OR OLD.department_id IS DISTINCT FROM NEW.department_id
    OR OLD.admission_type IS DISTINCT FROM NEW.admission_type OR OLD.patient_id IS DISTINCT FROM NEW.patient_id
    OR OLD.triage_level IS DISTINCT FROM NEW.triage_level OR OLD.triage_rank IS DISTINCT FROM NEW.triage_rank
    OR OLD.triage_target_minutes IS DISTINCT FROM NEW.triage_target_minutes)
  EXECUTE FUNCTION greensen_stats_admissions();
--> statement-breakpoint
-- A triage record: the day of its visit (the flow's arrival → triage).
CREATE OR REPLACE FUNCTION greensen_stats_triage() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  row_admission uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.admission_id ELSE NEW.admission_id END;
BEGIN
  PERFORM greensen_stats_mark(a.hospital_id, a.admitted_at) FROM admissions a WHERE a.id = row_admission;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER triage_records_stats AFTER INSERT OR UPDATE OR DELETE ON triage_records
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_triage();
--> statement-breakpoint
-- A consultation: its day (doctors, diagnoses) and its visit's day (the flow's → doctor → end).
CREATE OR REPLACE FUNCTION greensen_stats_consultations() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT * FROM (SELECT OLD.*) o WHERE TG_OP <> 'INSERT'
    UNION ALL SELECT * FROM (SELECT NEW.*) n WHERE TG_OP <> 'DELETE' LOOP
    PERFORM greensen_stats_mark(r.hospital_id, r.started_at);
    PERFORM greensen_stats_mark(a.hospital_id, a.admitted_at) FROM admissions a WHERE a.id = r.admission_id;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER consultations_stats_insert_delete AFTER INSERT OR DELETE ON consultations
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_consultations();
--> statement-breakpoint
CREATE TRIGGER consultations_stats_update AFTER UPDATE ON consultations
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.started_at IS DISTINCT FROM NEW.started_at
    OR OLD.completed_at IS DISTINCT FROM NEW.completed_at OR OLD.doctor_id IS DISTINCT FROM NEW.doctor_id
    OR OLD.department_id IS DISTINCT FROM NEW.department_id OR OLD.admission_id IS DISTINCT FROM NEW.admission_id)
  EXECUTE FUNCTION greensen_stats_consultations();
--> statement-breakpoint
-- A diagnosis (coded afterwards, changed, removed): its consultation's day.
CREATE OR REPLACE FUNCTION greensen_stats_diagnoses() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  row_consultation uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.consultation_id ELSE NEW.consultation_id END;
BEGIN
  PERFORM greensen_stats_mark(c.hospital_id, c.started_at) FROM consultations c WHERE c.id = row_consultation;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER consultation_diagnoses_stats AFTER INSERT OR UPDATE OR DELETE ON consultation_diagnoses
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_diagnoses();
--> statement-breakpoint
-- An exam order: the day of its request.
CREATE OR REPLACE FUNCTION greensen_stats_exams() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM greensen_stats_mark(OLD.hospital_id, OLD.requested_at);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM greensen_stats_mark(NEW.hospital_id, NEW.requested_at);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER exam_orders_stats_insert_delete AFTER INSERT OR DELETE ON exam_orders
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_exams();
--> statement-breakpoint
CREATE TRIGGER exam_orders_stats_update AFTER UPDATE ON exam_orders
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.requested_at IS DISTINCT FROM NEW.requested_at
    OR OLD.validated_at IS DISTINCT FROM NEW.validated_at OR OLD.abnormal IS DISTINCT FROM NEW.abnormal
    OR OLD.department_id IS DISTINCT FROM NEW.department_id OR OLD.exam_id IS DISTINCT FROM NEW.exam_id)
  EXECUTE FUNCTION greensen_stats_exams();
--> statement-breakpoint
-- A stock movement (the ledger is append-only): its day.
CREATE OR REPLACE FUNCTION greensen_stats_movements() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM greensen_stats_mark(NEW.hospital_id, NEW.at);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stock_movements_stats AFTER INSERT ON stock_movements
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_movements();
--> statement-breakpoint
-- A patient's birth date or sex (age groups, pyramid): every day of their visits and consultations.
CREATE OR REPLACE FUNCTION greensen_stats_patients() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_dirty_days (hospital_id, day)
  SELECT DISTINCT x.hospital_id, (x.at AT TIME ZONE h.time_zone)::date
  FROM (SELECT a.hospital_id, a.admitted_at AS at FROM admissions a WHERE a.patient_id = NEW.id
    UNION ALL SELECT c.hospital_id, c.started_at FROM consultations c WHERE c.patient_id = NEW.id) x
  JOIN hospitals h ON h.id = x.hospital_id
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER patients_stats AFTER UPDATE OF birth_date, sex ON patients
  FOR EACH ROW WHEN (OLD.birth_date IS DISTINCT FROM NEW.birth_date OR OLD.sex IS DISTINCT FROM NEW.sex)
  EXECUTE FUNCTION greensen_stats_patients();
--> statement-breakpoint
-- What exists already: every day with data is marked, so the first reads (or the job) build its summaries.
INSERT INTO stats_dirty_days (hospital_id, day)
SELECT DISTINCT x.hospital_id, (x.at AT TIME ZONE h.time_zone)::date
FROM (SELECT hospital_id, admitted_at AS at FROM admissions
  UNION ALL SELECT hospital_id, started_at FROM consultations
  UNION ALL SELECT hospital_id, requested_at FROM exam_orders
  UNION ALL SELECT hospital_id, at FROM stock_movements) x
JOIN hospitals h ON h.id = x.hospital_id
ON CONFLICT DO NOTHING;
