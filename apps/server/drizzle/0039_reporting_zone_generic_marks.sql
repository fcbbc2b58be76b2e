-- The reporting summaries' day marks (decision 0038), revised by decision 0047:
-- 1. One function marks the days of a changed row for every table whose rule is "the row's own time" or "the time
--    of the row it references": the trigger's arguments name them, each either a column of the row (a time, in the
--    row's hospital) or `fk>table.column` (the time `column` of the row of `table` whose id is the row's `fk`).
--    It replaces the five copies of migration 0032 (triage records, consultations, diagnoses, exam orders, stock
--    movements). The visits (the patient's next visit too) and the patients (all their visits) keep their own.
-- 2. A change of a hospital's time zone moves its day boundaries: every day it has figures for, or marked, is
--    marked again together with the two days on each side (two zones differ by 26 hours at most), so that the
--    next refresh rebuilds them in the new zone (the rebuild deletes the old days' rows and writes the new ones).
-- 3. The stays ended since a moment (the dashboard's discharges of the day, the inpatient indicators) by an index:
--    at 50,000 stays the overview's discharges read the hospital's whole stays table (29 ms, decision 0047).
CREATE OR REPLACE FUNCTION greensen_stats_mark_row() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  r jsonb;
  arg text;
  fk text;
  target text;
BEGIN
  FOR r IN SELECT to_jsonb(OLD) WHERE TG_OP <> 'INSERT' UNION ALL SELECT to_jsonb(NEW) WHERE TG_OP <> 'DELETE' LOOP
    FOREACH arg IN ARRAY TG_ARGV LOOP
      IF position('>' IN arg) = 0 THEN
        PERFORM greensen_stats_mark((r ->> 'hospital_id')::uuid, (r ->> arg)::timestamptz);
      ELSE
        fk := split_part(arg, '>', 1);
        target := split_part(arg, '>', 2);
        EXECUTE format('SELECT greensen_stats_mark(p.hospital_id, p.%I) FROM %I p WHERE p.id = $1',
          split_part(target, '.', 2), split_part(target, '.', 1))
          USING (r ->> fk)::uuid;
      END IF;
    END LOOP;
  END LOOP;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER triage_records_stats ON triage_records;
--> statement-breakpoint
CREATE TRIGGER triage_records_stats AFTER INSERT OR UPDATE OR DELETE ON triage_records
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_mark_row('admission_id>admissions.admitted_at');
--> statement-breakpoint
DROP TRIGGER consultations_stats_insert_delete ON consultations;
--> statement-breakpoint
DROP TRIGGER consultations_stats_update ON consultations;
--> statement-breakpoint
CREATE TRIGGER consultations_stats_insert_delete AFTER INSERT OR DELETE ON consultations
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_mark_row('started_at', 'admission_id>admissions.admitted_at');
--> statement-breakpoint
CREATE TRIGGER consultations_stats_update AFTER UPDATE ON consultations
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.started_at IS DISTINCT FROM NEW.started_at
    OR OLD.completed_at IS DISTINCT FROM NEW.completed_at OR OLD.doctor_id IS DISTINCT FROM NEW.doctor_id
    OR OLD.department_id IS DISTINCT FROM NEW.department_id OR OLD.admission_id IS DISTINCT FROM NEW.admission_id)
  EXECUTE FUNCTION greensen_stats_mark_row('started_at', 'admission_id>admissions.admitted_at');
--> statement-breakpoint
DROP TRIGGER consultation_diagnoses_stats ON consultation_diagnoses;
--> statement-breakpoint
CREATE TRIGGER consultation_diagnoses_stats AFTER INSERT OR UPDATE OR DELETE ON consultation_diagnoses
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_mark_row('consultation_id>consultations.started_at');
--> statement-breakpoint
DROP TRIGGER exam_orders_stats_insert_delete ON exam_orders;
--> statement-breakpoint
DROP TRIGGER exam_orders_stats_update ON exam_orders;
--> statement-breakpoint
CREATE TRIGGER exam_orders_stats_insert_delete AFTER INSERT OR DELETE ON exam_orders
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_mark_row('requested_at');
--> statement-breakpoint
CREATE TRIGGER exam_orders_stats_update AFTER UPDATE ON exam_orders
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.requested_at IS DISTINCT FROM NEW.requested_at
    OR OLD.validated_at IS DISTINCT FROM NEW.validated_at OR OLD.abnormal IS DISTINCT FROM NEW.abnormal
    OR OLD.department_id IS DISTINCT FROM NEW.department_id OR OLD.exam_id IS DISTINCT FROM NEW.exam_id)
  EXECUTE FUNCTION greensen_stats_mark_row('requested_at');
--> statement-breakpoint
DROP TRIGGER stock_movements_stats ON stock_movements;
--> statement-breakpoint
CREATE TRIGGER stock_movements_stats AFTER INSERT ON stock_movements
  FOR EACH ROW EXECUTE FUNCTION greensen_stats_mark_row('at');
--> statement-breakpoint
DROP FUNCTION greensen_stats_triage();
--> statement-breakpoint
DROP FUNCTION greensen_stats_consultations();
--> statement-breakpoint
DROP FUNCTION greensen_stats_diagnoses();
--> statement-breakpoint
DROP FUNCTION greensen_stats_exams();
--> statement-breakpoint
DROP FUNCTION greensen_stats_movements();
--> statement-breakpoint
-- A hospital's time zone: its days with figures (the day rows of the visits, consultations, exams and the ledger;
-- the other summaries' days are among them) and its marked days, two days on each side.
CREATE OR REPLACE FUNCTION greensen_stats_zone_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO stats_dirty_days (hospital_id, day)
  SELECT DISTINCT NEW.id, d.day + s.shift
  FROM (SELECT day FROM stats_daily_visits WHERE hospital_id = NEW.id AND grain = 'd'
    UNION SELECT day FROM stats_daily_doctors WHERE hospital_id = NEW.id AND grain = 'd'
    UNION SELECT day FROM stats_daily_exams WHERE hospital_id = NEW.id AND grain = 'd'
    UNION SELECT day FROM stats_daily_pharmacy WHERE hospital_id = NEW.id AND grain = 'd'
    UNION SELECT day FROM stats_dirty_days WHERE hospital_id = NEW.id) d
  CROSS JOIN generate_series(-2, 2) AS s(shift)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER hospitals_stats_zone AFTER UPDATE OF time_zone ON hospitals
  FOR EACH ROW WHEN (OLD.time_zone IS DISTINCT FROM NEW.time_zone)
  EXECUTE FUNCTION greensen_stats_zone_changed();
--> statement-breakpoint
CREATE INDEX "hospitalizations_hospital_ended_idx" ON "hospitalizations" USING btree ("hospital_id","ended_at") WHERE "hospitalizations"."ended_at" is not null;
