import { sql, type SQL } from 'drizzle-orm';
import { parseSearch } from '../../../domain/search.js';
import { SEARCH_TEXT_SQL } from '../schema/articles.js';

/**
 * SQL of the reader search (docs/decisions.md "Reader search"), the same on PGlite and PostgreSQL.
 * Kept apart from the list query so that both change independently.
 *
 * - A query with websearch operators ("phrase", OR, -word) is websearch_to_tsquery over the
 *   generated `search_vector` (GIN).
 * - A plain query matches its words as prefixes (`protei` finds "protein"), still through the
 *   tsvector index: every word of the query as `word:*`, all required.
 * - CJK text: the parser sees a CJK run as one word, so `結構` never equals a lexeme. The tsvector
 *   holds the runs' character bigrams (cjk_bigrams), and the query asks for its runs' bigrams as a
 *   phrase; a run of 3+ characters is also matched as a substring through the trigram index on
 *   article_search_text(...) (a 2-character run has no trigram, the bigram serves it).
 */

/** A relevance sort ranks at most this many matches (the first found); see docs/decisions.md. */
export const RELEVANCE_CANDIDATES = 2000;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

interface Plan {
  tsquery: SQL;
  /** ILIKE pattern of the trigram branch, when there is one */
  like: string | null;
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** `'蛋白' <-> '白質'`: the character bigrams of a CJK run in order, as a tsquery phrase */
function bigramPhrase(run: string): string | null {
  const chars = [...run];
  if (chars.length < 2) return null;
  const grams = chars.slice(1).map((c, i) => `'${chars[i]}${c}'`);
  return grams.length === 1 ? grams[0]! : `(${grams.join(' <-> ')})`;
}

function planOf(q: string): Plan {
  const parsed = parseSearch(q);
  const cjkRuns = parsed.text.match(CJK_RUN) ?? [];
  // a trigram lookup needs a run of 3+ characters; a shorter CJK query is served by the bigrams
  const like =
    cjkRuns.length && (cjkRuns.some((r) => [...r].length >= 3) || cjkRuns.every((r) => [...r].length < 2))
      ? `%${escapeLike(parsed.text)}%`
      : null;
  if (!parsed.plain) return { tsquery: sql`websearch_to_tsquery('english'::regconfig, ${q})`, like };
  // letters and digits only: nothing of the input reaches to_tsquery's own syntax
  const parts: string[] = [];
  for (const term of parsed.terms) {
    for (const run of term.match(CJK_RUN) ?? []) {
      const phrase = bigramPhrase(run);
      if (phrase) parts.push(phrase);
    }
    for (const w of term.replace(CJK_RUN, ' ').split(/[^\p{L}\p{N}]+/u)) if (w) parts.push(`'${w}':*`);
  }
  if (!parts.length) return { tsquery: sql`websearch_to_tsquery('english'::regconfig, ${q})`, like };
  return { tsquery: sql`to_tsquery('english'::regconfig, ${parts.slice(0, 16).join(' & ')})`, like };
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
