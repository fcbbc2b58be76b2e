CREATE TYPE "public"."dosage_form" AS ENUM('tablet', 'dispersible_tablet', 'capsule', 'oral_solution', 'oral_suspension', 'syrup', 'powder_oral', 'injection', 'infusion', 'suppository', 'cream', 'ointment', 'eye_drops', 'ear_drops', 'inhaler', 'nebuliser_solution', 'pessary', 'implant', 'other');--> statement-breakpoint
CREATE TYPE "public"."medication_route" AS ENUM('oral', 'iv', 'im', 'sc', 'rectal', 'topical', 'ophthalmic', 'otic', 'inhaled', 'vaginal', 'sublingual', 'other');--> statement-breakpoint
CREATE TYPE "public"."stock_movement_kind" AS ENUM('receipt', 'dispense', 'transfer_out', 'transfer_in', 'adjustment', 'expiry_writeoff', 'inventory');--> statement-breakpoint
CREATE TYPE "public"."prescription_status" AS ENUM('draft', 'signed', 'partially_dispensed', 'dispensed', 'cancelled');--> statement-breakpoint
CREATE TABLE "medication_presentations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"medication_id" uuid NOT NULL,
	"code" text NOT NULL,
	"form" "dosage_form" NOT NULL,
	"strength" text NOT NULL,
	"route" "medication_route" NOT NULL,
	"unit" text NOT NULL,
	"paediatric" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"sort_order" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "medication_presentations_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "medications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"inn_fr" text NOT NULL,
	"inn_en" text NOT NULL,
	"atc_code" text,
	"group_fr" text NOT NULL,
	"group_en" text NOT NULL,
	"brands" text[] DEFAULT '{}'::text[] NOT NULL,
	"allergy_classes" text[] DEFAULT '{}'::text[] NOT NULL,
	"essential" boolean DEFAULT true NOT NULL,
	"search_text" text NOT NULL,
	"source" text DEFAULT 'shipped' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medications_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "prescription_lines" (
	"id" uuid PRIMARY KEY NOT NULL,
	"prescription_id" uuid NOT NULL,
	"position" smallint NOT NULL,
	"medication_id" uuid NOT NULL,
	"presentation_id" uuid NOT NULL,
	"dose" numeric(10, 3) NOT NULL,
	"dose_unit" text NOT NULL,
	"route" "medication_route" NOT NULL,
	"frequency" jsonb NOT NULL,
	"duration_days" smallint,
	"quantity" integer NOT NULL,
	"dispensed_quantity" integer DEFAULT 0 NOT NULL,
	"instructions" text,
	"allergy_override_reason" text,
	CONSTRAINT "prescription_lines_dispensed_ck" CHECK ("prescription_lines"."dispensed_quantity" >= 0 and "prescription_lines"."dispensed_quantity" <= "prescription_lines"."quantity"),
	CONSTRAINT "prescription_lines_quantity_ck" CHECK ("prescription_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "prescriptions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"number" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"prescriber_id" uuid NOT NULL,
	"department_id" uuid NOT NULL,
	"consultation_id" uuid,
	"hospitalization_id" uuid,
	"status" "prescription_status" DEFAULT 'draft' NOT NULL,
	"weight_kg" numeric(5, 2),
	"notes" text,
	"version" integer DEFAULT 1 NOT NULL,
	"signed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prescriptions_origin_ck" CHECK ("prescriptions"."consultation_id" is not null or "prescriptions"."hospitalization_id" is not null),
	CONSTRAINT "prescriptions_signed_ck" CHECK ("prescriptions"."status" in ('draft', 'cancelled') or "prescriptions"."signed_at" is not null)
);
--> statement-breakpoint
CREATE TABLE "stock_items" (
	"hospital_id" uuid NOT NULL,
	"pharmacy_id" uuid NOT NULL,
	"presentation_id" uuid NOT NULL,
	"on_hand" integer DEFAULT 0 NOT NULL,
	"lots" integer DEFAULT 0 NOT NULL,
	"nearest_expiry" date,
	"reorder_level" integer,
	"sort_key" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_items_pharmacy_id_presentation_id_pk" PRIMARY KEY("pharmacy_id","presentation_id"),
	CONSTRAINT "stock_items_on_hand_ck" CHECK ("stock_items"."on_hand" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_lots" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"pharmacy_id" uuid NOT NULL,
	"presentation_id" uuid NOT NULL,
	"lot_number" text NOT NULL,
	"expiry_date" date NOT NULL,
	"on_hand" integer DEFAULT 0 NOT NULL,
	"unit_cost" numeric(14, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_lots_on_hand_ck" CHECK ("stock_lots"."on_hand" >= 0)
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"pharmacy_id" uuid NOT NULL,
	"lot_id" uuid NOT NULL,
	"presentation_id" uuid NOT NULL,
	"kind" "stock_movement_kind" NOT NULL,
	"quantity" integer NOT NULL,
	"reference" text,
	"reason" text,
	"prescription_id" uuid,
	"prescription_line_id" uuid,
	"by_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movements_quantity_ck" CHECK ("stock_movements"."quantity" <> 0 or "stock_movements"."kind" = 'inventory'),
	CONSTRAINT "stock_movements_sign_ck" CHECK (("stock_movements"."kind" in ('receipt', 'transfer_in') and "stock_movements"."quantity" > 0) or ("stock_movements"."kind" in ('dispense', 'transfer_out', 'expiry_writeoff') and "stock_movements"."quantity" < 0) or "stock_movements"."kind" in ('adjustment', 'inventory'))
);
--> statement-breakpoint
ALTER TABLE "medication_presentations" ADD CONSTRAINT "medication_presentations_medication_id_medications_id_fk" FOREIGN KEY ("medication_id") REFERENCES "public"."medications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_medication_id_medications_id_fk" FOREIGN KEY ("medication_id") REFERENCES "public"."medications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescription_lines" ADD CONSTRAINT "prescription_lines_presentation_id_medication_presentations_id_fk" FOREIGN KEY ("presentation_id") REFERENCES "public"."medication_presentations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_prescriber_id_users_id_fk" FOREIGN KEY ("prescriber_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_hospitalization_id_hospitalizations_id_fk" FOREIGN KEY ("hospitalization_id") REFERENCES "public"."hospitalizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD CONSTRAINT "prescriptions_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_items" ADD CONSTRAINT "stock_items_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_items" ADD CONSTRAINT "stock_items_pharmacy_id_departments_id_fk" FOREIGN KEY ("pharmacy_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_items" ADD CONSTRAINT "stock_items_presentation_id_medication_presentations_id_fk" FOREIGN KEY ("presentation_id") REFERENCES "public"."medication_presentations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_lots" ADD CONSTRAINT "stock_lots_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_lots" ADD CONSTRAINT "stock_lots_pharmacy_id_departments_id_fk" FOREIGN KEY ("pharmacy_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_lots" ADD CONSTRAINT "stock_lots_presentation_id_medication_presentations_id_fk" FOREIGN KEY ("presentation_id") REFERENCES "public"."medication_presentations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_pharmacy_id_departments_id_fk" FOREIGN KEY ("pharmacy_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_lot_id_stock_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."stock_lots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_presentation_id_medication_presentations_id_fk" FOREIGN KEY ("presentation_id") REFERENCES "public"."medication_presentations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_prescription_id_prescriptions_id_fk" FOREIGN KEY ("prescription_id") REFERENCES "public"."prescriptions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_prescription_line_id_prescription_lines_id_fk" FOREIGN KEY ("prescription_line_id") REFERENCES "public"."prescription_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_by_id_users_id_fk" FOREIGN KEY ("by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "medication_presentations_medication_idx" ON "medication_presentations" USING btree ("medication_id","sort_order");--> statement-breakpoint
CREATE INDEX "medications_search_trgm_idx" ON "medications" USING gin (f_unaccent(lower(search_text)) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "medications_atc_idx" ON "medications" USING btree (atc_code collate "C");--> statement-breakpoint
CREATE UNIQUE INDEX "prescription_lines_position_uq" ON "prescription_lines" USING btree ("prescription_id","position");--> statement-breakpoint
CREATE INDEX "prescription_lines_medication_idx" ON "prescription_lines" USING btree ("medication_id");--> statement-breakpoint
CREATE UNIQUE INDEX "prescriptions_number_uq" ON "prescriptions" USING btree ("hospital_id","number");--> statement-breakpoint
CREATE INDEX "prescriptions_hospital_status_idx" ON "prescriptions" USING btree ("hospital_id","status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "prescriptions_patient_idx" ON "prescriptions" USING btree ("patient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "prescriptions_prescriber_idx" ON "prescriptions" USING btree ("prescriber_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "prescriptions_consultation_idx" ON "prescriptions" USING btree ("consultation_id");--> statement-breakpoint
CREATE INDEX "prescriptions_hospitalization_idx" ON "prescriptions" USING btree ("hospitalization_id");--> statement-breakpoint
CREATE INDEX "stock_items_pharmacy_sort_idx" ON "stock_items" USING btree ("pharmacy_id","sort_key","presentation_id");--> statement-breakpoint
CREATE INDEX "stock_items_presentation_idx" ON "stock_items" USING btree ("presentation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_lots_lot_uq" ON "stock_lots" USING btree ("pharmacy_id","presentation_id","lot_number");--> statement-breakpoint
CREATE INDEX "stock_lots_fefo_idx" ON "stock_lots" USING btree ("pharmacy_id","presentation_id","expiry_date");--> statement-breakpoint
CREATE INDEX "stock_lots_presentation_idx" ON "stock_lots" USING btree ("presentation_id") WHERE "stock_lots"."on_hand" > 0;--> statement-breakpoint
CREATE INDEX "stock_lots_expiry_idx" ON "stock_lots" USING btree ("hospital_id","expiry_date") WHERE "stock_lots"."on_hand" > 0;--> statement-breakpoint
CREATE INDEX "stock_movements_lot_idx" ON "stock_movements" USING btree ("lot_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_pharmacy_idx" ON "stock_movements" USING btree ("pharmacy_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_presentation_idx" ON "stock_movements" USING btree ("presentation_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "stock_movements_prescription_idx" ON "stock_movements" USING btree ("prescription_id");--> statement-breakpoint
-- The stock ledger is append-only, like the audit trail (0002): UPDATE, DELETE and TRUNCATE are refused.
CREATE OR REPLACE FUNCTION stock_movements_refuse_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'stock_movements is append-only' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stock_movements_no_update_delete
  BEFORE UPDATE OR DELETE ON stock_movements
  FOR EACH ROW EXECUTE FUNCTION stock_movements_refuse_change();
--> statement-breakpoint
CREATE TRIGGER stock_movements_no_truncate
  BEFORE TRUNCATE ON stock_movements
  FOR EACH STATEMENT EXECUTE FUNCTION stock_movements_refuse_change();
--> statement-breakpoint
-- Every ledger row moves its lot in the same statement (so a lot's on_hand is the sum of its ledger rows, and
-- its CHECK (on_hand >= 0) refuses a movement that would make it negative), then refreshes the presentation's
-- summary in its pharmacy (stock_items: on hand, lots with units, nearest expiry) from its few lots.
CREATE OR REPLACE FUNCTION stock_movements_apply() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  UPDATE stock_lots SET on_hand = on_hand + NEW.quantity
   WHERE id = NEW.lot_id AND pharmacy_id = NEW.pharmacy_id AND presentation_id = NEW.presentation_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'stock lot % is not of this pharmacy and presentation', NEW.lot_id
      USING ERRCODE = 'foreign_key_violation';
  END IF;
  INSERT INTO stock_items AS s (hospital_id, pharmacy_id, presentation_id, on_hand, lots, nearest_expiry, updated_at)
    SELECT NEW.hospital_id, NEW.pharmacy_id, NEW.presentation_id,
           coalesce(sum(l.on_hand), 0), count(*) FILTER (WHERE l.on_hand > 0),
           min(l.expiry_date) FILTER (WHERE l.on_hand > 0), now()
      FROM stock_lots l
     WHERE l.pharmacy_id = NEW.pharmacy_id AND l.presentation_id = NEW.presentation_id
  ON CONFLICT (pharmacy_id, presentation_id) DO UPDATE
    SET on_hand = excluded.on_hand, lots = excluded.lots, nearest_expiry = excluded.nearest_expiry,
        updated_at = excluded.updated_at;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stock_movements_apply
  AFTER INSERT ON stock_movements
  FOR EACH ROW EXECUTE FUNCTION stock_movements_apply();
--> statement-breakpoint
-- A stock summary row gets its sort key (the medicine's unaccented INN, then the presentation's order) when it
-- is made, whoever makes it (the ledger's trigger, a reorder level).
CREATE OR REPLACE FUNCTION stock_items_sort_key() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  SELECT f_unaccent(lower(m.inn_fr)) || ' ' || lpad(pr.sort_order::text, 4, '0')
    INTO NEW.sort_key
    FROM medication_presentations pr JOIN medications m ON m.id = pr.medication_id
   WHERE pr.id = NEW.presentation_id;
  NEW.sort_key := coalesce(NEW.sort_key, '');
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER stock_items_sort_key
  BEFORE INSERT ON stock_items
  FOR EACH ROW EXECUTE FUNCTION stock_items_sort_key();
