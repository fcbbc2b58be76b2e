-- Change notices for the per-instance cache of the bed board (plugins/board-cache.ts, docs/performance.md).
-- Any change to what the board reads (wards, rooms, beds, stays, transfers, departments, the occupants' names
-- and flags, the doctors' names, the hospital's time zone, ICD-10 labels) sends the hospital's id on the
-- channel `greensen_board_changed` when its transaction commits (`*` when every hospital is concerned). Every
-- instance listens, so a change made by another instance, or directly in the database, reaches all of them.
CREATE OR REPLACE FUNCTION greensen_board_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('greensen_board_changed', '*');
  ELSIF TG_TABLE_NAME = 'hospitals' THEN
    PERFORM pg_notify('greensen_board_changed', OLD.id::text);
  ELSE
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('greensen_board_changed', OLD.hospital_id::text);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('greensen_board_changed', NEW.hospital_id::text);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER wards_board_changed AFTER INSERT OR UPDATE OR DELETE ON wards
  FOR EACH ROW EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER rooms_board_changed AFTER INSERT OR UPDATE OR DELETE ON rooms
  FOR EACH ROW EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER beds_board_changed AFTER INSERT OR UPDATE OR DELETE ON beds
  FOR EACH ROW EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER hospitalizations_board_changed AFTER INSERT OR UPDATE OR DELETE ON hospitalizations
  FOR EACH ROW EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER transfers_board_changed AFTER INSERT OR UPDATE OR DELETE ON transfers
  FOR EACH ROW EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER departments_board_changed AFTER INSERT OR UPDATE OR DELETE ON departments
  FOR EACH ROW EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER patients_board_changed
  AFTER UPDATE OF record_number, first_name, last_name, sex, birth_date, allergies, allergies_recorded, deceased_at
  ON patients FOR EACH ROW EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER hospitals_board_changed AFTER UPDATE OF time_zone ON hospitals
  FOR EACH ROW EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER users_board_changed AFTER UPDATE OF first_name, last_name ON users
  FOR EACH STATEMENT EXECUTE FUNCTION greensen_board_changed();
--> statement-breakpoint
CREATE TRIGGER icd10_codes_board_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON icd10_codes
  FOR EACH STATEMENT EXECUTE FUNCTION greensen_board_changed();
