import { sql, type SQL } from 'drizzle-orm';
import { MAX_SEARCH_TERMS, PREFIX_MIN_CHARS, parseSearch } from '../../../domain/search.js';
import { SEARCH_CJK_SQL, SEARCH_TEXT_SQL } from '../schema/articles.js';

/**
 * SQL of the reader search (docs/decisions/0037-reader-search.md), the same on PGlite and PostgreSQL.
 * Kept apart from the list query so that both change independently.
 *
 * - A query with websearch operators ("phrase", OR, -word) is websearch_to_tsquery over the
 *   generated `search_vector` (GIN).
 * - A plain query matches its words as prefixes (`protei` finds "protein"), still through the
 *   tsvector index: every word of the query as `word:*`, all required.
 * - CJK text: the parser sees a CJK run as one word, so `結構` never equals a lexeme. The tsvector
 *   holds the runs' character bigrams (cjk_bigrams), and the query asks for its runs' bigrams as a
 *   phrase; a run of 3+ characters is also matched as a substring: the trigram index on the CJK
 *   runs of the article's text (article_search_cjk) finds the articles holding each such run of
 *   the query, and the whole query is then checked as a substring of article_search_text(...)
 *   (a 2-character run has no trigram, the bigram serves it).
 */

/** A relevance sort ranks at most this many matches (the first found); see docs/decisions/0037-reader-search.md. */
export const RELEVANCE_CANDIDATES = 2000;
/**
 * The same on PGlite, whose statements run on the service's event loop: ranking reads each
 * candidate's whole tsvector (~0.1 ms for a 12 KB article), so 2,000 would hold every other
 * request for a fifth of a second (docs/decisions/0055-bounded-search.md).
 */
export const EMBEDDED_RELEVANCE_CANDIDATES = 300;
/**
 * On PGlite a statement cannot be interrupted, and a request waits for the one under way: a search
 * there ranks its candidates at most this many per statement (~0.1 ms each) and merges the chunks'
 * ranks in the service, in the order one statement would give
 * (docs/decisions/0147-pglite-search-in-short-statements.md).
 */
export const EMBEDDED_RANK_CHUNK = 50;
/**
 * The same for a page's snippet fields: each reads an article's content (~1 ms for 12 KB on
 * PGlite), so a page of 20 read in one statement held the event loop ~20 ms.
 */
export const EMBEDDED_SNIPPET_CHUNK = 5;
/**
 * On PGlite a query that needs word positions (a quoted phrase, a hyphenated word of a websearch
 * query, a CJK run of 3+ characters) checks them in at most this many articles: the GIN index
 * cannot check positions, so each article holding the words had its whole tsvector read on the
 * event loop (~0.1 ms for a 12 KB article; `"w1 w2"` of two common words read 2,400 of them, 350 ms).
 * PostgreSQL checks every candidate under its statement timeout
 * (docs/decisions/0135-phrase-search-bounded-on-pglite.md).
 */
export const EMBEDDED_PHRASE_CANDIDATES = 200;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

interface Plan {
  tsquery: SQL;
  /**
   * When the query needs word positions: the same query without them (phrases as AND, negations
   * left out), which matches every article the query matches and which the index answers without
   * reading any tsvector; `everything` is a condition true when nothing of it is left (`-"a b"`).
   */
  relaxed: { tsquery: SQL; everything: SQL | null } | null;
  /** ILIKE pattern of the trigram branch, when there is one */
  like: string | null;
  /** the query's CJK runs of 3+ characters, as ILIKE patterns of the index's CJK text */
  cjkLikes: string[];
}

/** CJK runs of a query the trigram branch asks the index for (each narrows; the check is exact) */
const MAX_TRIGRAM_RUNS = 4;

/**
 * The positions-free form of a websearch tsquery, in SQL: `querytree` keeps what an index can
 * answer (no negation; 'T' when nothing is left), then every phrase operator (`<->`, `<N>`) outside
 * a quoted lexeme becomes `&`. Immutable functions of the query only: computed once a statement.
 */
const TSQUERY_PHRASE_OPERATOR = "((?:'(?:[^']|'')*'|[^'<])*)<(?:-|[0-9]+)>";
const relaxedWebsearch = (tsquery: SQL) => ({
  tsquery: sql`regexp_replace(querytree(${tsquery}), ${TSQUERY_PHRASE_OPERATOR}, ${'\\1&'}, 'g')::tsquery`,
  everything: sql`(querytree(${tsquery}) = 'T')`,
});

/**
 * Whether websearch_to_tsquery may give this text a phrase operator: a quoted part, or a word the
 * parser splits in several (`covid-19`, `e.g.`). Erring towards yes only bounds a query that did
 * not need it.
 */
const mayHavePhrase = (text: string) => /"|[\p{L}\p{N}][^\s\p{L}\p{N}]+[\p{L}\p{N}]/u.test(text);

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

const MAX_PHRASE_GRAMS = 16;

/** `'蛋白' <-> '白質'`: the character bigrams of a CJK run in order, as a tsquery phrase */
function bigramPhrase(run: string): string | null {
  const chars = [...run];
  if (chars.length < 2) return null;
  // a long run's first bigrams narrow enough; the trigram branch checks the whole run
  const grams = chars.slice(1, MAX_PHRASE_GRAMS + 1).map((c, i) => `'${chars[i]}${c}'`);
  return grams.length === 1 ? grams[0]! : `(${grams.join(' <-> ')})`;
}

/**
 * The bounds of one search (issue 24: `q=a b c … p` made every one-letter word a prefix term over
 * the whole corpus): at most MAX_SEARCH_TERMS terms; a word matches as a prefix only from
 * PREFIX_MIN_CHARS characters on (shorter ones as whole words); one-character words are left out
 * when the query has longer ones. A single CJK character asks for the bigrams it starts.
 */

/** the tsquery terms of a plain query's words, in order, before the limit */
function plainTerms(terms: readonly string[]): string[] {
  const cjk: string[] = [];
  const words: string[] = [];
  for (const term of terms) {
    for (const run of term.match(CJK_RUN) ?? []) {
      const phrase = bigramPhrase(run);
      cjk.push(phrase ?? `'${run}':*`);
    }
    for (const w of term.replace(CJK_RUN, ' ').split(/[^\p{L}\p{N}]+/u)) if (w) words.push(w);
  }
  const long = words.filter((w) => [...w].length > 1);
  const kept = long.length || cjk.length ? long : words;
  return [...cjk, ...kept.map((w) => ([...w].length >= PREFIX_MIN_CHARS ? `'${w}':*` : `'${w}'`))];
}

/** the first MAX_SEARCH_TERMS words or quoted phrases of a websearch query */
function boundedWebsearch(text: string): string {
  return (text.match(/-?"[^"]*"?|\S+/g) ?? []).slice(0, MAX_SEARCH_TERMS).join(' ');
}

function planOf(q: string): Plan {
  const parsed = parseSearch(q);
  const cjkRuns = parsed.text.match(CJK_RUN) ?? [];
  // a trigram lookup needs a run of 3+ characters; shorter CJK runs are served by the bigrams
  const longRuns = cjkRuns.filter((r) => [...r].length >= 3);
  const like = longRuns.length ? `%${escapeLike(parsed.text)}%` : null;
  const cjkLikes = longRuns.slice(0, MAX_TRIGRAM_RUNS).map((r) => `%${escapeLike(r)}%`);
  const websearch = (): Plan => {
    const text = boundedWebsearch(parsed.text);
    const tsquery = sql`websearch_to_tsquery('english'::regconfig, ${text})`;
    return { tsquery, relaxed: mayHavePhrase(text) ? relaxedWebsearch(tsquery) : null, like, cjkLikes };
  };
  if (!parsed.plain) return websearch();
  // letters and digits only: nothing of the input reaches to_tsquery's own syntax
  const parts = plainTerms(parsed.terms).slice(0, MAX_SEARCH_TERMS);
  if (!parts.length) return websearch();
  const text = parts.join(' & ');
  // a CJK bigram phrase is the only phrase of a plain query
  const relaxed = text.includes(' <-> ')
    ? { tsquery: sql`to_tsquery('english'::regconfig, ${text.replaceAll(' <-> ', ' & ')})`, everything: null }
    : null;
  return { tsquery: sql`to_tsquery('english'::regconfig, ${text})`, relaxed, like, cjkLikes };
}

/**
 * The WHERE condition of `q` on articles `a`. With `phraseCandidates` (PGlite), a query that needs
 * word positions checks them only in the first `phraseCandidates` articles the index finds for its
 * positions-free form, so a statement reads at most that many tsvectors; a query that does not
 * need positions is answered by the index alone, as on PostgreSQL.
 */
export function searchMatch(q: string, phraseCandidates: number | null = null): SQL {
  const { tsquery, relaxed, like, cjkLikes } = planOf(q);
  // each run of the query in the CJK text (what the index answers), then the whole query in the
  // whole text: a run found in the text is in its CJK text, so the answer is the whole check's
  const trigram = like
    ? sql`(${sql.join(
        [...cjkLikes.map((l) => sql`${SEARCH_CJK_SQL} ilike ${l}`), sql`${SEARCH_TEXT_SQL} ilike ${like}`],
        sql` and `,
      )})`
    : null;
  if (!relaxed || phraseCandidates === null) {
    const words = sql`a.search_vector @@ ${tsquery}`;
    return trigram ? sql`(${words} or ${trigram})` : words;
  }
  // The LIMIT is a fence: the position check runs above it, on the candidates only. `everything`
  // has no column: a one-time filter that switches between the two branches.
  const candidates = relaxed.everything
    ? sql`(select c.id, c.search_vector from articles c
            where not ${relaxed.everything} and c.search_vector @@ ${relaxed.tsquery} limit ${phraseCandidates})
          union all
          (select c.id, c.search_vector from articles c where ${relaxed.everything} limit ${phraseCandidates})`
    : sql`select c.id, c.search_vector from articles c where c.search_vector @@ ${relaxed.tsquery} limit ${phraseCandidates}`;
  const phrase = sql`select c.id from (${candidates}) c where c.search_vector @@ ${tsquery}`;
  // the trigram branch as a set of its own: OR with a subquery would scan every article
  return trigram
    ? sql`a.id in (${phrase} union all select a.id from articles a where ${trigram})`
    : sql`a.id in (${phrase})`;
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
