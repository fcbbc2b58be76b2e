CREATE TYPE "public"."mobile_money_request_status" AS ENUM('pending', 'succeeded', 'failed');--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"base" text NOT NULL,
	"quote" text NOT NULL,
	"rate" numeric(20, 8) NOT NULL,
	"valid_on" date NOT NULL,
	"set_by" uuid NOT NULL,
	"note" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_rate_ck" CHECK ("exchange_rates"."rate" > 0),
	CONSTRAINT "exchange_rates_pair_ck" CHECK ("exchange_rates"."base" <> "exchange_rates"."quote")
);
--> statement-breakpoint
CREATE TABLE "mobile_money_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"invoice_id" uuid NOT NULL,
	"operator" "mobile_money_operator" NOT NULL,
	"phone" text NOT NULL,
	"currency" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" "mobile_money_request_status" DEFAULT 'pending' NOT NULL,
	"requested_by" uuid NOT NULL,
	"cash_session_id" uuid NOT NULL,
	"provider_reference" text,
	"payment_id" uuid,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "mobile_money_requests_amount_ck" CHECK ("mobile_money_requests"."amount" > 0),
	CONSTRAINT "mobile_money_requests_done_ck" CHECK (("mobile_money_requests"."status" = 'pending') = ("mobile_money_requests"."completed_at" is null) and ("mobile_money_requests"."status" <> 'succeeded' or "mobile_money_requests"."provider_reference" is not null))
);
--> statement-breakpoint
CREATE TABLE "mobile_money_secrets" (
	"id" uuid PRIMARY KEY NOT NULL,
	"hospital_id" uuid NOT NULL,
	"operator" "mobile_money_operator" NOT NULL,
	"secret_encrypted" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mobile_money_requests" ADD CONSTRAINT "mobile_money_requests_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mobile_money_requests" ADD CONSTRAINT "mobile_money_requests_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mobile_money_requests" ADD CONSTRAINT "mobile_money_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mobile_money_requests" ADD CONSTRAINT "mobile_money_requests_cash_session_id_cash_sessions_id_fk" FOREIGN KEY ("cash_session_id") REFERENCES "public"."cash_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mobile_money_requests" ADD CONSTRAINT "mobile_money_requests_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mobile_money_secrets" ADD CONSTRAINT "mobile_money_secrets_hospital_id_hospitals_id_fk" FOREIGN KEY ("hospital_id") REFERENCES "public"."hospitals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exchange_rates_lookup_idx" ON "exchange_rates" USING btree ("hospital_id","base","quote","valid_on" DESC NULLS LAST,"created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "mobile_money_requests_reference_uq" ON "mobile_money_requests" USING btree ("hospital_id","operator","provider_reference") WHERE "mobile_money_requests"."provider_reference" is not null;--> statement-breakpoint
CREATE INDEX "mobile_money_requests_invoice_idx" ON "mobile_money_requests" USING btree ("invoice_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "mobile_money_requests_requester_idx" ON "mobile_money_requests" USING btree ("hospital_id","requested_by","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "mobile_money_secrets_uq" ON "mobile_money_secrets" USING btree ("hospital_id","operator");