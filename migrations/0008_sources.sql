CREATE TABLE "source_fetches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"run_id" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"http_status" integer,
	"items_seen" integer DEFAULT 0 NOT NULL,
	"items_new" integer,
	"items_duplicate" integer,
	"error_code" text,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "sources" ADD COLUMN "fetch_interval_minutes" integer DEFAULT 60 NOT NULL;--> statement-breakpoint
ALTER TABLE "source_fetches" ADD CONSTRAINT "source_fetches_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_fetches" ADD CONSTRAINT "source_fetches_run_id_scraper_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."scraper_runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "source_fetches_source_idx" ON "source_fetches" USING btree ("source_id","started_at");--> statement-breakpoint
CREATE INDEX "source_fetches_run_idx" ON "source_fetches" USING btree ("run_id");--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_fetch_interval_ck" CHECK ("sources"."fetch_interval_minutes" between 5 and 10080);