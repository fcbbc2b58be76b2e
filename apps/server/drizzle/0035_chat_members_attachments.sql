ALTER TABLE "chat_messages" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "event_user_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "attachment_name" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "attachment_type" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "attachment_size" integer;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "attachment_sha256" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "attachment_key" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_event_user_id_users_id_fk" FOREIGN KEY ("event_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_event_ck" CHECK (("chat_messages"."event" is null and "chat_messages"."event_user_id" is null)
        or ("chat_messages"."event" in ('member_added', 'member_removed', 'member_left') and "chat_messages"."event_user_id" is not null and "chat_messages"."body" = ''));--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_attachment_ck" CHECK (("chat_messages"."attachment_key" is null and "chat_messages"."attachment_name" is null and "chat_messages"."attachment_type" is null and "chat_messages"."attachment_size" is null and "chat_messages"."attachment_sha256" is null)
        or ("chat_messages"."attachment_key" is not null and "chat_messages"."attachment_name" is not null and "chat_messages"."attachment_size" is not null and "chat_messages"."attachment_sha256" is not null
          and "chat_messages"."attachment_type" in ('image/jpeg', 'image/png', 'image/webp', 'image/heic', 'application/pdf')));