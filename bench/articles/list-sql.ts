/**
 * The bench's own SQL of one page of the articles list, in plain text over the public schema: the
 * floor the API's figures are compared with, and the statements whose plans the reader bench
 * prints. Written to the shape the service's list query has (docs/performance.md): side-table
 * sorts as a UNION ALL of the rows with a value (from the side table's sort index) and those
 * without, relevance over a bounded set of candidates, and the page decorated with its view
 * count, tags, enabled metrics and the viewer's favorite and read marks.
 */

/** A statement with its parameters ($1, $2, ...), as node-postgres takes it. */
export interface Statement {
  sql: string;
  params: unknown[];
}

/** Collects parameters and hands out their placeholders. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const COLUMNS =
  'a.id, a.topic_id, a.title, a.url, a.source, a.summary, a.published_at, a.scraped_at, a.language, a.doi, a.arxiv_id';

/** As many candidates as the service ranks for a relevance sort on PostgreSQL. */
export const RELEVANCE_CANDIDATES = 2000;

/** The rows no reader has read yet, of `userId`: the anti-join on article_reads' key. */
export const unreadWhere = (p: Params, userId: string) =>
  `not exists (select 1 from article_reads r where r.user_id = ${p.add(userId)} and r.article_id = a.id)`;

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/**
 * The search of the plain words of `q` (no operators): every word a prefix term (`word:*`), a CJK
 * run its character bigrams as a phrase, all required; a CJK run of three or more characters is
 * also found as a substring: each such run in article_search_cjk(...) through the trigram index,
 * then the whole query in article_search_text(...).
 */
export function searchOf(p: Params, q: string): { where: string; rank: string } {
  const terms: string[] = [];
  for (const word of q.split(/\s+/).filter(Boolean)) {
    for (const run of word.match(CJK_RUN) ?? []) {
      const chars = [...run];
      const grams = chars.slice(1).map((c, i) => `'${chars[i]}${c}'`);
      terms.push(grams.length ? `(${grams.join(' <-> ')})` : `'${run}':*`);
    }
    for (const w of word.replace(CJK_RUN, ' ').split(/[^\p{L}\p{N}]+/u)) if (w) terms.push(`'${w}':*`);
  }
  const tsquery = `to_tsquery('english'::regconfig, ${p.add(terms.join(' & '))})`;
  const words = `a.search_vector @@ ${tsquery}`;
  const rankWords = `ts_rank_cd(a.search_vector, ${tsquery})`;
  const longRuns = (q.match(CJK_RUN) ?? []).filter((r) => [...r].length >= 3);
  if (!longRuns.length) return { where: words, rank: rankWords };
  const escape = (s: string) => s.replace(/[\\%_]/g, '\\$&');
  const like = p.add(`%${escape(q)}%`);
  const text = 'article_search_text(a.title, a.summary, a.translations, a.content)';
  const cjk = longRuns
    .slice(0, 4)
    .map(
      (r) =>
        `article_search_cjk(a.title, a.summary, a.translations, a.content) ilike ${p.add(`%${escape(r)}%`)}`,
    );
  return {
    where: `(${words} or (${[...cjk, `${text} ilike ${like}`].join(' and ')}))`,
    rank: `(${rankWords} + case when a.title ilike ${like} then 0.2 when ${text} ilike ${like} then 0.1 else 0 end)`,
  };
}

export type Order = 'asc' | 'desc';

/** A page sorted by a metric of article_metrics: the rows with a value first, then the others by id. */
export function metricPage(
  p: Params,
  where: string,
  metricKey: string,
  order: Order,
  limit: number,
  offset: number,
): string {
  const key = p.add(metricKey);
  const reach = p.add(limit + offset);
  const has = `s.metric_key = ${key} and s.value is not null`;
  return `select * from (
      (select ${COLUMNS} from article_metrics s join articles a on a.id = s.article_id
        where ${has} and ${where}
        order by s.value ${order}, s.article_id ${order} limit ${reach})
      union all
      (select ${COLUMNS} from articles a
        where not exists (select 1 from article_metrics s where s.article_id = a.id and ${has})
          and ${where}
        order by a.id ${order} limit ${reach})
    ) u limit ${p.add(limit)} offset ${p.add(offset)}`;
}

/** A page sorted by scraped_at (its index: scraped_at, id). */
export const scrapedAtPage = (p: Params, where: string, order: Order, limit: number, offset: number) =>
  `select ${COLUMNS} from articles a where ${where}
   order by a.scraped_at ${order}, a.id ${order} limit ${p.add(limit)} offset ${p.add(offset)}`;

/** Best matches first among at most RELEVANCE_CANDIDATES matching rows, ties newest first. */
export const relevancePage = (p: Params, search: { where: string; rank: string }, limit: number) =>
  `select c.* from (
      select ${COLUMNS}, ${search.rank} as rank from articles a where ${search.where}
      limit ${RELEVANCE_CANDIDATES}
    ) c order by c.rank desc, c.scraped_at desc, c.id desc limit ${p.add(limit)}`;

/** The page's rows with their view count, tags, enabled metrics, and the viewer's marks. */
export function decoratedPage(p: Params, page: string, viewerId: string | null): string {
  const viewer = viewerId ? p.add(viewerId) : null;
  const favorited = viewer
    ? `exists (select 1 from favorites f where f.user_id = ${viewer} and f.article_id = p.id)`
    : 'false';
  const read = viewer
    ? `exists (select 1 from article_reads r where r.user_id = ${viewer} and r.article_id = p.id)`
    : 'false';
  return `select p.*,
    (select v.view_count from article_view_counts v where v.article_id = p.id) as view_count,
    coalesce((select json_agg(t.name order by t.name) from article_tags at join tags t on t.id = at.tag_id
              where at.article_id = p.id), '[]'::json) as tags,
    coalesce((select json_object_agg(m.metric_key, m.value order by m.metric_key) from article_metrics m
              join metric_definitions d on d.metric_key = m.metric_key and d.enabled
              where m.article_id = p.id and m.value is not null), '{}'::json) as metrics,
    ${favorited} as is_favorited,
    ${read} as is_read
    from (${page}) p`;
}

/** The exact count of the matches, stopping after `cap` + 1 rows. */
export const cappedCount = (p: Params, where: string, cap: number) =>
  `select count(*)::int as n from (select 1 from articles a where ${where} limit ${p.add(cap + 1)}) c`;

/** One statement built with its own parameters. */
export function statement(build: (p: Params) => string): Statement {
  const p = new Params();
  const text = build(p);
  return { sql: text, params: p.values };
}
