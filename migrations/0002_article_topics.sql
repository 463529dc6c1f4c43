CREATE TABLE "article_topics" (
	"article_id" uuid NOT NULL,
	"topic_id" uuid NOT NULL,
	"source_id" uuid,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_topics_article_id_topic_id_pk" PRIMARY KEY("article_id","topic_id")
);
--> statement-breakpoint
ALTER TABLE "scraper_skips" ADD COLUMN "detail" text;--> statement-breakpoint
ALTER TABLE "article_topics" ADD CONSTRAINT "article_topics_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_topics" ADD CONSTRAINT "article_topics_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_topics" ADD CONSTRAINT "article_topics_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_topics_topic_idx" ON "article_topics" USING btree ("topic_id","article_id");--> statement-breakpoint
-- Every article is linked to its primary topic (articles.topic_id / source_id), whoever inserts it:
-- one statement-level trigger, so a multi-row insert costs one extra INSERT ... SELECT.
CREATE OR REPLACE FUNCTION "article_topics_primary"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "article_topics" ("article_id", "topic_id", "source_id", "first_seen_at")
	SELECT "id", "topic_id", "source_id", "scraped_at" FROM "inserted_articles"
	ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "article_topics_primary" ON "articles";
--> statement-breakpoint
CREATE TRIGGER "article_topics_primary" AFTER INSERT ON "articles"
	REFERENCING NEW TABLE AS "inserted_articles"
	FOR EACH STATEMENT EXECUTE FUNCTION "article_topics_primary"();
--> statement-breakpoint
-- existing articles: their primary topic
INSERT INTO "article_topics" ("article_id", "topic_id", "source_id", "first_seen_at")
SELECT "id", "topic_id", "source_id", "scraped_at" FROM "articles"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Deleting a topic deletes its articles (articles.topic_id cascades), but an article another
-- topic also carries moves to that topic (its earliest other link) and stays.
CREATE OR REPLACE FUNCTION "article_topics_rehome"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "articles" a
	SET "topic_id" = l."topic_id",
		"source_id" = l."source_id",
		"source" = coalesce((SELECT s."name" FROM "sources" s WHERE s."id" = l."source_id"), a."source")
	FROM (
		SELECT DISTINCT ON (lt."article_id") lt."article_id", lt."topic_id", lt."source_id"
		FROM "article_topics" lt JOIN "articles" x ON x."id" = lt."article_id"
		WHERE x."topic_id" = OLD."id" AND lt."topic_id" <> OLD."id"
		ORDER BY lt."article_id", lt."first_seen_at", lt."topic_id"
	) l
	WHERE a."id" = l."article_id";
	RETURN OLD;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "article_topics_rehome" ON "topics";
--> statement-breakpoint
CREATE TRIGGER "article_topics_rehome" BEFORE DELETE ON "topics"
	FOR EACH ROW EXECUTE FUNCTION "article_topics_rehome"();
