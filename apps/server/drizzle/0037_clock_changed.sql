-- Change notices for the per-instance cache of hospital clocks (plugins/clock-cache.ts, docs/performance.md §nurse
-- dashboard): a change of a hospital's time zone or of its settings (the nursing shift times) sends the
-- hospital's id on the channel `greensen_clock_changed` when its transaction commits (`*` for a TRUNCATE). Every
-- instance listens, so a change made by another instance, or directly in the database, reaches all of them.
CREATE OR REPLACE FUNCTION greensen_clock_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('greensen_clock_changed', '*');
  ELSIF TG_TABLE_NAME = 'hospitals' THEN
    PERFORM pg_notify('greensen_clock_changed', OLD.id::text);
  ELSE
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('greensen_clock_changed', OLD.hospital_id::text);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('greensen_clock_changed', NEW.hospital_id::text);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER hospitals_clock_changed AFTER UPDATE OF time_zone OR DELETE ON hospitals
  FOR EACH ROW EXECUTE FUNCTION greensen_clock_changed();
--> statement-breakpoint
CREATE TRIGGER hospital_settings_clock_changed AFTER INSERT OR UPDATE OR DELETE ON hospital_settings
  FOR EACH ROW EXECUTE FUNCTION greensen_clock_changed();
--> statement-breakpoint
CREATE TRIGGER hospital_settings_clock_truncated AFTER TRUNCATE ON hospital_settings
  FOR EACH STATEMENT EXECUTE FUNCTION greensen_clock_changed();
