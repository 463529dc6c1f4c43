-- The trigram index of the article search holds the CJK runs of an article's search text only
-- (docs/decisions/0169-trigrams-of-cjk-runs-only.md). It serves one kind of query, a run of 3+
-- CJK characters, which is then checked on article_search_text as before; the English around
-- the runs gave the index ~1,500 characters of trigrams an article, written on insert and again
-- on every update: about a quarter of PGlite's time in the pipeline. Every character below U+2E80 except
-- Hangul Jamo (U+1100-11FF) becomes a space; what a query's CJK run can hold (Han, kana, Hangul)
-- is kept, with the symbols and other scripts above it.
CREATE OR REPLACE FUNCTION article_search_cjk(title text, summary text, translations jsonb, content text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(
    coalesce(title, '') || ' ' || coalesce(summary, '') || ' '
      || coalesce(translations->'zh-TW'->>'title', '') || ' ' || coalesce(translations->'zh-TW'->>'summary', '')
      || ' ' || left(coalesce(content, ''), 1000),
    '[\x01-\u10ff\u1200-\u2e7f]+', ' ', 'g')
$$;--> statement-breakpoint
DROP INDEX "articles_search_trgm_idx";--> statement-breakpoint
CREATE INDEX "articles_search_cjk_trgm_idx" ON "articles" USING gin (article_search_cjk("title", "summary", "translations", "content") gin_trgm_ops);
