-- Issue 36. Mobile money: one pending request per invoice and phone. Requests already pending twice (before this
-- rule) keep the oldest; the others are failed with a reason, so that the unique index can be built.
UPDATE "mobile_money_requests" m SET "status" = 'failed', "completed_at" = now(), "failure_reason" = 'duplicate_pending'
  WHERE m."status" = 'pending' AND EXISTS (
    SELECT 1 FROM "mobile_money_requests" o
      WHERE o."status" = 'pending' AND o."invoice_id" = m."invoice_id"
        AND regexp_replace(o."phone", '[^0-9]', '', 'g') = regexp_replace(m."phone", '[^0-9]', '', 'g')
        AND (o."created_at", o."id") < (m."created_at", m."id"));--> statement-breakpoint
CREATE UNIQUE INDEX "mobile_money_requests_pending_uq" ON "mobile_money_requests" USING btree ("invoice_id",regexp_replace("phone", '[^0-9]', '', 'g')) WHERE "mobile_money_requests"."status" = 'pending';--> statement-breakpoint
-- The calendar-feed link (issue 36) ends when the person's password changes or their account is disabled or
-- enabled again (every hospital's link), and when a membership of a hospital ends or comes back (that hospital's
-- link): a link that leaked stays dead whatever path changes the person, and the person makes a new one.
CREATE FUNCTION ics_links_revoke_on_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ics_links SET revoked_at = now() WHERE user_id = NEW.id AND revoked_at IS NULL;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER users_ics_links_revoke AFTER UPDATE OF password_hash, is_active ON users
  FOR EACH ROW WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash OR OLD.is_active IS DISTINCT FROM NEW.is_active)
  EXECUTE FUNCTION ics_links_revoke_on_user_change();--> statement-breakpoint
CREATE FUNCTION ics_links_revoke_on_membership_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ics_links SET revoked_at = now()
    WHERE user_id = NEW.user_id AND hospital_id = NEW.hospital_id AND revoked_at IS NULL;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER memberships_ics_links_revoke AFTER UPDATE OF is_active ON memberships
  FOR EACH ROW WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active)
  EXECUTE FUNCTION ics_links_revoke_on_membership_change();
--> statement-breakpoint
-- Memberships versus persons (issue 36, decision 0060): an invitation is a membership the person has not accepted.
ALTER TABLE "memberships" ADD COLUMN "accepted_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "invitation_token_hash" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "invitation_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "invitation" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_invitation_uq" ON "memberships" USING btree ("invitation_token_hash") WHERE "memberships"."invitation_token_hash" is not null;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_pending_ck" CHECK ("memberships"."invitation_token_hash" is null or ("memberships"."accepted_at" is null and not "memberships"."is_active" and "memberships"."invitation_expires_at" is not null));--> statement-breakpoint
UPDATE "memberships" SET "accepted_at" = "created_at";
