-- an article's bucket keys move from one row a bucket (work_text_bands) into an array on its
-- fingerprint row; the keys already stored are carried over in band order, so copies of articles
-- fingerprinted before this migration are still found
ALTER TABLE "work_fingerprints" ADD COLUMN "bands" integer[];--> statement-breakpoint
UPDATE "work_fingerprints" f SET "bands" = b.keys
FROM (SELECT "article_id", array_agg("key" ORDER BY "band") AS keys FROM "work_text_bands" GROUP BY "article_id") b
WHERE f."article_id" = b."article_id";--> statement-breakpoint
DROP TABLE "work_text_bands" CASCADE;--> statement-breakpoint
CREATE INDEX "work_fingerprints_bands_idx" ON "work_fingerprints" USING gin ("bands") WITH (fastupdate=false);
