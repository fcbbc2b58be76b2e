ALTER TABLE "prescription_lines" ADD COLUMN "refused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD COLUMN "refused_by" uuid;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD COLUMN "refusal_reason" text;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_refused_by_users_id_fk" FOREIGN KEY ("refused_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_refusal_ck" CHECK (("prescription_lines"."refused_at" is null and "prescription_lines"."refused_by" is null and "prescription_lines"."refusal_reason" is null)
        or ("prescription_lines"."refused_at" is not null and "prescription_lines"."refused_by" is not null and length("prescription_lines"."refusal_reason") >= 5));--> statement-breakpoint
-- Issue 34: a line refused by the pharmacist is never dispensed afterwards, and a fully dispensed line is never
-- refused, whatever the code does (the service also locks the prescription and updates conditionally).
CREATE OR REPLACE FUNCTION greensen_prescription_line_refusal() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.refused_at IS NOT NULL AND NEW.dispensed_quantity > OLD.dispensed_quantity THEN
    RAISE EXCEPTION 'prescription line % is refused by the pharmacy', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  IF OLD.refused_at IS NULL AND NEW.refused_at IS NOT NULL AND NEW.dispensed_quantity >= NEW.quantity THEN
    RAISE EXCEPTION 'prescription line % is fully dispensed', NEW.id USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER prescription_lines_refusal_trg BEFORE UPDATE OF dispensed_quantity, refused_at ON prescription_lines
  FOR EACH ROW EXECUTE FUNCTION greensen_prescription_line_refusal();
