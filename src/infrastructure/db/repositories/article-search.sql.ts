import { sql, type SQL } from 'drizzle-orm';
import { hasCjk, parseSearch } from '../../../domain/search.js';
import { SEARCH_TEXT_SQL } from '../schema/articles.js';

/**
 * SQL of the reader search (docs/decisions.md "Reader search"), the same on PGlite and PostgreSQL.
 * Kept apart from the list query so that both change independently.
 *
 * - A query with websearch operators ("phrase", OR, -word) is websearch_to_tsquery over the
 *   generated `search_vector` (GIN).
 * - A plain query matches its words as prefixes (`protei` finds "protein"), still through the
 *   tsvector index: every word of the query as `word:*`, all required.
 * - A query with CJK text is also matched as a substring through the trigram index on
 *   article_search_text(...): the parser sees a CJK run as one word, so `結構` never equals a lexeme.
 */

/** A relevance sort ranks at most this many matches (the first found); see docs/decisions.md. */
export const RELEVANCE_CANDIDATES = 2000;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

interface Plan {
  tsquery: SQL;
  /** ILIKE pattern of the trigram branch, when there is one */
  like: string | null;
}

function planOf(q: string): Plan {
  const parsed = parseSearch(q);
  const like = hasCjk(parsed.text) ? `%${escapeLike(parsed.text)}%` : null;
  if (!parsed.plain) return { tsquery: sql`websearch_to_tsquery('english'::regconfig, ${q})`, like };
  // letters and digits only: nothing of the input reaches to_tsquery's own syntax
  const words = parsed.terms
    .flatMap((t) => t.split(/[^\p{L}\p{N}]+/u))
    .filter((w) => w && !hasCjk(w))
    .slice(0, 16);
  if (!words.length) return { tsquery: sql`websearch_to_tsquery('english'::regconfig, ${q})`, like };
  const prefix = words.map((w) => `'${w}':*`).join(' & ');
  return { tsquery: sql`to_tsquery('english'::regconfig, ${prefix})`, like };
}

/** The WHERE condition of `q` on articles `a`. */
export function searchMatch(q: string): SQL {
  const { tsquery, like } = planOf(q);
  const words = sql`a.search_vector @@ ${tsquery}`;
  return like ? sql`(${words} or ${SEARCH_TEXT_SQL} ilike ${like})` : words;
}

/**
 * Relevance of a matching row: the field-weighted word rank, plus for a substring (CJK) match 0.2
 * when it is in the title and 0.1 elsewhere.
 */
export function searchRank(q: string): SQL {
  const { tsquery, like } = planOf(q);
  const words = sql`ts_rank_cd(a.search_vector, ${tsquery})`;
  return like
    ? sql`(${words} + case when a.title ilike ${like} then 0.2 when ${SEARCH_TEXT_SQL} ilike ${like} then 0.1 else 0 end)`
    : words;
}

/** Text of the fields a snippet is cut from (zh-TW title and summary, content start). */
export const SNIPPET_FIELDS = sql`,
    (select json_build_array(x.translations->'zh-TW'->>'title', x.translations->'zh-TW'->>'summary', left(x.content, 20000))
       from articles x where x.id = p.id) as search_fields`;
