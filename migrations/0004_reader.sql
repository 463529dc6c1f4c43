-- Reader search (docs/decisions/0037-reader-search.md): pg_trgm (PGlite loads it from its contrib
-- bundle, src/infrastructure/db/client.ts), the text of the trigram index (an IMMUTABLE function, so
-- that the index expression and the query call are the same) and the CJK bigrams of the tsvector.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE OR REPLACE FUNCTION article_search_text(title text, summary text, translations jsonb, content text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(title, '') || ' ' || coalesce(summary, '') || ' '
    || coalesce(translations->'zh-TW'->>'title', '') || ' ' || coalesce(translations->'zh-TW'->>'summary', '')
    || ' ' || left(coalesce(content, ''), 1000)
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION cjk_bigrams(t text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN t ~ '[\u3400-\u9fff\uf900-\ufaff]' THEN (
    SELECT coalesce(string_agg(b, ' ' ORDER BY i), '')
    FROM (SELECT i, substr(t, i, 2) AS b FROM generate_series(1, length(t) - 1) AS i) s
    WHERE b ~ '^[\u3400-\u9fff\uf900-\ufaff]{2}$') ELSE '' END
$$;--> statement-breakpoint
CREATE TABLE "article_embeddings" (
	"article_id" uuid PRIMARY KEY NOT NULL,
	"embedding" real[],
	"sparse_embedding" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "article_reads" (
	"user_id" uuid NOT NULL,
	"article_id" uuid NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_reads_user_id_article_id_pk" PRIMARY KEY("user_id","article_id")
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A')
  || setweight(to_tsvector('english'::regconfig, coalesce(summary, '')), 'B')
  || setweight(to_tsvector('simple'::regconfig, coalesce(translations->'zh-TW'->>'title', '') || ' ' || coalesce(translations->'zh-TW'->>'summary', '')), 'B')
  || setweight(to_tsvector('simple'::regconfig, cjk_bigrams(coalesce(title, '') || ' ' || left(coalesce(summary, ''), 1000) || ' ' || coalesce(translations->'zh-TW'->>'title', '') || ' ' || left(coalesce(translations->'zh-TW'->>'summary', ''), 1000))), 'B')
  || setweight(to_tsvector('english'::regconfig, left(coalesce(content, ''), 100000)), 'C')) STORED;--> statement-breakpoint
ALTER TABLE "article_embeddings" ADD CONSTRAINT "article_embeddings_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_reads" ADD CONSTRAINT "article_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_reads" ADD CONSTRAINT "article_reads_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "article_reads_article_idx" ON "article_reads" USING btree ("article_id");--> statement-breakpoint
CREATE INDEX "articles_search_vector_idx" ON "articles" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "articles_search_trgm_idx" ON "articles" USING gin (article_search_text("title", "summary", "translations", "content") gin_trgm_ops);