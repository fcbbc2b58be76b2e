-- Issue 37 (decision 0079): a cash payment keeps what the patient handed over and the change given back, both in
-- the payment's currency; neither or both, cash payments only, and the change is what was handed over less the amount.
ALTER TABLE "payments" ADD COLUMN "amount_tendered" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "change_due" bigint;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_tendered_ck" CHECK (("payments"."amount_tendered" is null and "payments"."change_due" is null) or ("payments"."method" = 'cash' and "payments"."kind" = 'payment' and "payments"."amount_tendered" >= "payments"."amount" and "payments"."change_due" = "payments"."amount_tendered" - "payments"."amount"));
