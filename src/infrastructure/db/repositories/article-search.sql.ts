import { sql, type SQL } from 'drizzle-orm';
import { hasCjk, parseSearch } from '../../../domain/search.js';
import { SEARCH_TEXT_SQL } from '../schema/articles.js';

/**
 * SQL of the reader search (docs/decisions.md "Reader search"), the same on PGlite and PostgreSQL:
 * words through the generated `search_vector` (GIN), CJK text and partial words through the trigram
 * index on article_search_text(...). Kept apart from the list query so both change independently.
 */

/** A relevance sort ranks at most this many matches (the first found); see docs/decisions.md. */
export const RELEVANCE_CANDIDATES = 5000;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

const tsquery = (q: string) => sql`websearch_to_tsquery('english'::regconfig, ${q})`;

/**
 * A plain query (no websearch operators) of at least three characters, or any with CJK text, is
 * also matched as a substring: trigrams find it when the words do not (a CJK run is one "word" to
 * the parser; "protei" is no English word).
 */
function substringOf(q: string): string | null {
  const parsed = parseSearch(q);
  if (!parsed.plain) return null;
  if (parsed.text.length < 3 && !hasCjk(parsed.text)) return null;
  return `%${escapeLike(parsed.text)}%`;
}

/** The WHERE condition of `q` on articles `a`. */
export function searchMatch(q: string): SQL {
  const like = substringOf(q);
  const words = sql`a.search_vector @@ ${tsquery(q)}`;
  return like ? sql`(${words} or ${SEARCH_TEXT_SQL} ilike ${like})` : words;
}

/** Relevance of a matching row: word rank (weighted by field), plus trigram closeness of a substring match. */
export function searchRank(q: string): SQL {
  const like = substringOf(q);
  const words = sql`ts_rank_cd(a.search_vector, ${tsquery(q)})`;
  return like
    ? sql`(${words} + case when ${SEARCH_TEXT_SQL} ilike ${like} then 0.1 + word_similarity(${q}, ${SEARCH_TEXT_SQL}) else 0 end)`
    : words;
}

/** Text of the fields a snippet is cut from (title, summary, zh-TW translation, content start). */
export const SNIPPET_FIELDS = sql`,
    (select json_build_array(x.translations->'zh-TW'->>'title', x.translations->'zh-TW'->>'summary', left(x.content, 20000))
       from articles x where x.id = p.id) as search_fields`;
