CREATE TABLE "run_errors" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"source_id" uuid,
	"article_id" uuid,
	"topic_id" uuid,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scraper_runs" ALTER COLUMN "trigger" SET DEFAULT 'admin';--> statement-breakpoint
ALTER TABLE "scraper_runs" ADD COLUMN "kind" text DEFAULT 'scrape' NOT NULL;--> statement-breakpoint
ALTER TABLE "scraper_runs" ADD COLUMN "summary" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "scraper_runs" ADD COLUMN "progress_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scraper_runs" ADD COLUMN "progress_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scraper_runs" ADD COLUMN "error_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scraper_runs" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "scraper_runs" ADD COLUMN "heartbeat_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "run_errors" ADD CONSTRAINT "run_errors_run_id_scraper_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."scraper_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_errors_run_idx" ON "run_errors" USING btree ("run_id","created_at");--> statement-breakpoint
CREATE INDEX "scraper_runs_started_idx" ON "scraper_runs" USING btree ("started_at","id");--> statement-breakpoint
CREATE INDEX "scraper_runs_status_idx" ON "scraper_runs" USING btree ("status");--> statement-breakpoint
-- existing scrape runs: the old triggers 'api'/'manual' read as admin, their counts are their summary,
-- and a run left running by the old code (no owner, no heartbeat) can only have been interrupted
UPDATE "scraper_runs" SET "trigger" = 'admin' WHERE "trigger" NOT IN ('cron', 'admin', 'cli');--> statement-breakpoint
UPDATE "scraper_runs" SET "summary" = "counts" WHERE "summary" = '{}'::jsonb;--> statement-breakpoint
UPDATE "scraper_runs" SET "status" = 'interrupted', "finished_at" = coalesce("finished_at", now()) WHERE "status" = 'running';
