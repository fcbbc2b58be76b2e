-- Change notices for the per-instance cache of signed-in users (plugins/auth-cache.ts, decision 0012).
-- Any change to what a request's sign-in check reads (the user, their sessions, memberships, hospitals and
-- departments) sends a notice on the channel `greensen_auth_changed` when its transaction commits: the id of
-- the user concerned, or `*` when hospitals or departments change (every cached user is dropped). Every
-- instance listens, so a change made by another instance, or directly in the database, reaches all of them.
CREATE OR REPLACE FUNCTION greensen_auth_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('greensen_auth_changed', '*');
    RETURN NULL;
  END IF;
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('greensen_auth_changed', OLD.id::text);
  ELSE
    IF TG_OP <> 'INSERT' THEN
      PERFORM pg_notify('greensen_auth_changed', OLD.user_id::text);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM pg_notify('greensen_auth_changed', NEW.user_id::text);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER users_auth_changed
  AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION greensen_auth_changed();
--> statement-breakpoint
CREATE TRIGGER auth_sessions_auth_changed
  AFTER UPDATE OR DELETE ON auth_sessions
  FOR EACH ROW EXECUTE FUNCTION greensen_auth_changed();
--> statement-breakpoint
CREATE TRIGGER memberships_auth_changed
  AFTER INSERT OR UPDATE OR DELETE ON memberships
  FOR EACH ROW EXECUTE FUNCTION greensen_auth_changed();
--> statement-breakpoint
CREATE TRIGGER hospitals_auth_changed
  AFTER UPDATE OR DELETE OR TRUNCATE ON hospitals
  FOR EACH STATEMENT EXECUTE FUNCTION greensen_auth_changed();
--> statement-breakpoint
CREATE TRIGGER departments_auth_changed
  AFTER UPDATE OR DELETE OR TRUNCATE ON departments
  FOR EACH STATEMENT EXECUTE FUNCTION greensen_auth_changed();
