ALTER TABLE "hospitals" ADD COLUMN "address" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "phones" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "languages" text[] DEFAULT '{fr,en}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "print_header" text;--> statement-breakpoint
ALTER TABLE "hospitals" ADD COLUMN "print_footer" text;