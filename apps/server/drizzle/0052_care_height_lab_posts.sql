-- Issue 39 (decision 0085): a ward set may carry the patient's height in cm (FHIR 8302-2), within the app's bounds
-- (VITAL_BOUNDS.height of packages/shared, the triage's: 20–250 cm). Not part of NEWS2.
ALTER TABLE "care_vitals" ADD COLUMN "height" numeric(4, 1);--> statement-breakpoint
ALTER TABLE "care_vitals" ADD CONSTRAINT "care_vitals_height_ck" CHECK ("care_vitals"."height" between 20 and 250);--> statement-breakpoint
-- The retry key of a laboratory value posted through FHIR (an instrument, a reference laboratory): a retry of the
-- same identifier answers the value it wrote and writes nothing.
CREATE TABLE "exam_result_posts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"idempotency_key" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"field_key" text NOT NULL,
	"posted_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_result_posts" ADD CONSTRAINT "exam_result_posts_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_result_posts" ADD CONSTRAINT "exam_result_posts_order_id_exam_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."exam_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_result_posts" ADD CONSTRAINT "exam_result_posts_posted_by_users_id_fk" FOREIGN KEY ("posted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exam_result_posts_key_uq" ON "exam_result_posts" USING btree ("hospital_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "exam_result_posts_order_idx" ON "exam_result_posts" USING btree ("order_id");
