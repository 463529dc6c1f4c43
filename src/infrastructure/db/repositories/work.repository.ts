import { sql, type SQL } from 'drizzle-orm';
import type {
  CopyCandidate,
  LinkArticle,
  WorkAssignment,
  WorkDecision,
  WorkLinkStore,
  WorkMember,
  WorkReadStore,
} from '../../../application/works/works.ports.js';
import {
  signatureFromText,
  signatureToText,
  type IdentifierKey,
  type IdentifierLink,
  type TextFingerprint,
} from '../../../domain/works.js';
import { rowsOf, type Db } from '../client.js';
import { uuidArray } from './article.repository.js';

/** the key of coverage_count in the metric catalog */
export const COVERAGE_KEY = 'coverage_count';
/** first key of the advisory lock that lets one work linker run at a time */
const LINK_LOCK_SPACE = 28_125;
const ARXIV_DOI_PREFIX = '10.48550/arxiv.';

const list = (values: readonly string[]): SQL =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
const date = (v: Date | string) => (v instanceof Date ? v : new Date(v));
/** one parameter holding a whole column: a batch's rows bind as a few arrays, not a parameter each */
const column = (values: readonly unknown[], type: string): SQL =>
  sql`${sql.param(values)}::${sql.raw(type)}[]`;
/**
 * A column of values that never need quoting in an array literal (integers, uuids, ISO times), sent
 * as the literal itself: thousands of elements bind without escaping each one.
 */
const plainColumn = (
  values: readonly (number | string)[],
  type: 'int' | 'smallint' | 'uuid' | 'timestamptz',
) => sql`${`{${values.join(',')}}`}::${sql.raw(type)}[]`;

interface MemberRow {
  id: string;
  work_id: string;
  doi: string | null;
  arxiv_id: string | null;
  url: string;
  at: Date | string;
}
const memberOf = (r: MemberRow): WorkMember => ({
  id: r.id,
  workId: r.work_id,
  doi: r.doi,
  arxivId: r.arxiv_id,
  url: r.url,
  at: date(r.at),
});
const MEMBER_COLUMNS = sql.raw(
  'a.id, coalesce(a.work_id, a.id) as work_id, a.doi, a.arxiv_id, a.url, coalesce(a.published_at, a.scraped_at) as at',
);
/** the articles of the works `ids` (a work of one article has no work_id: its id is the article's) */
const inWorks = (ids: readonly string[]) =>
  sql`(a.work_id = any(${uuidArray(ids)}) or (a.work_id is null and a.id = any(${uuidArray(ids)})))`;

/** DOIs and arXiv ids of identifier keys, as the article columns hold them */
function columnsOf(keys: readonly string[]): { dois: string[]; arxiv: string[] } {
  const dois: string[] = [];
  const arxiv: string[] = [];
  for (const k of keys) {
    if (k.startsWith('doi:')) dois.push(k.slice(4));
    else if (k.startsWith('arxiv:')) {
      arxiv.push(k.slice(6));
      dois.push(`${ARXIV_DOI_PREFIX}${k.slice(6)}`);
    }
  }
  return { dois, arxiv };
}
function carrying(keys: readonly string[]): SQL {
  const { dois, arxiv } = columnsOf(keys);
  const parts: SQL[] = [];
  if (dois.length) parts.push(sql`a.doi in (${list(dois)})`);
  if (arxiv.length) parts.push(sql`a.arxiv_id in (${list(arxiv)})`);
  return parts.length ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}

/**
 * The members `m(id, w)` of the works `ids` and the reference keys `k(w, key)` that point at them:
 * a member's DOI, arXiv id (an arXiv DOI counts as its id) and canonical URL.
 */
const workKeys = (ids: readonly string[]) => sql`
  m as (select a.id, coalesce(a.work_id, a.id) as w, a.doi, a.arxiv_id, a.canonical_url
        from articles a where ${inWorks(ids)}),
  k as (select w, 'doi:' || doi as key from m where doi is not null and doi not like ${`${ARXIV_DOI_PREFIX}%`}
        union select w, 'arxiv:' || arxiv_id from m where arxiv_id is not null
        union select w, 'arxiv:' || substr(doi, ${ARXIV_DOI_PREFIX.length + 1}) from m
              where doi like ${`${ARXIV_DOI_PREFIX}%`}
        union select w, 'url:' || canonical_url from m),
  c as (select distinct k.w, r.article_id from k join article_references r on r.ref_key = k.key
        where not exists (select 1 from m where m.w = k.w and m.id = r.article_id))`;

/** Works in PostgreSQL / PGlite: the linker's store and the reads of GET /works/{id}. */
export class DrizzleWorkStore implements WorkLinkStore, WorkReadStore {
  constructor(private readonly db: Db) {}

  locked<T>(fn: (store: WorkLinkStore) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${LINK_LOCK_SPACE}, 1)`);
      return fn(new DrizzleWorkStore(tx as unknown as Db));
    });
  }

  async articles(ids: readonly string[]): Promise<LinkArticle[]> {
    if (!ids.length) return [];
    const rows = rowsOf<{
      id: string;
      work_id: string;
      doi: string | null;
      arxiv_id: string | null;
      url: string;
      canonical_url: string;
      metadata: Record<string, unknown> | string | null;
      text: string | null;
      html: string | null;
      at: Date | string;
    }>(
      await this.db.execute(sql`
        select a.id, coalesce(a.work_id, a.id) as work_id, a.doi, a.arxiv_id, a.url, a.canonical_url,
          a.metadata - 'content_html' - 'feed_summary' as metadata,
          left(coalesce(a.content, a.summary), 200000) as text,
          left(coalesce(a.metadata->>'content_html', a.metadata->>'feed_summary'), 500000) as html,
          coalesce(a.published_at, a.scraped_at) as at
        from articles a where a.id = any(${uuidArray(ids)})`),
    );
    return rows.map((r) => ({
      id: r.id,
      workId: r.work_id,
      doi: r.doi,
      arxivId: r.arxiv_id,
      url: r.url,
      canonicalUrl: r.canonical_url,
      metadata: (typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata) ?? {},
      text: r.text,
      html: r.html,
      at: date(r.at),
    }));
  }

  async linksOf(keys: readonly IdentifierKey[]): Promise<IdentifierLink[]> {
    if (!keys.length) return [];
    const rows = rowsOf<{ from_key: IdentifierKey; to_key: IdentifierKey; evidence: string }>(
      await this.db.execute(sql`select from_key, to_key, evidence from work_identifier_links
        where from_key in (${list(keys)}) or to_key in (${list(keys)})`),
    );
    return rows.map((r) => ({ from: r.from_key, to: r.to_key, evidence: r.evidence }));
  }

  async saveLinks(links: readonly IdentifierLink[]): Promise<void> {
    if (!links.length) return;
    await this.db.execute(sql`insert into work_identifier_links (from_key, to_key, evidence)
      values ${sql.join(
        links.map((l) => sql`(${l.from}, ${l.to}, ${l.evidence})`),
        sql`, `,
      )}
      on conflict (from_key, to_key) do update set evidence = excluded.evidence, seen_at = now()`);
  }

  private async members_(where: SQL, limit = 1000): Promise<WorkMember[]> {
    return rowsOf<MemberRow>(
      await this.db.execute(
        sql`select ${MEMBER_COLUMNS} from articles a where ${where} order by a.id limit ${limit}`,
      ),
    ).map(memberOf);
  }

  byIdentifiers(keys: readonly IdentifierKey[]) {
    return keys.length ? this.members_(carrying(keys)) : Promise.resolve([]);
  }

  async byIdentifiersEach(keySets: readonly (readonly IdentifierKey[])[]): Promise<WorkMember[][]> {
    const all = [...new Set(keySets.flat())];
    const found = all.length ? await this.members_(carrying(all), 1000 * keySets.length) : [];
    // each set's members, matched as `carrying` matches them in SQL
    return keySets.map((keys) => {
      if (!keys.length) return [];
      const { dois, arxiv } = columnsOf(keys);
      const d = new Set(dois);
      const x = new Set(arxiv);
      return found.filter(
        (m) => (m.doi !== null && d.has(m.doi)) || (m.arxivId !== null && x.has(m.arxivId)),
      );
    });
  }

  async byCanonicalUrlsEach(urlSets: readonly (readonly string[])[]): Promise<WorkMember[][]> {
    const all = [...new Set(urlSets.flat())];
    if (!all.length) return urlSets.map(() => []);
    const rows = rowsOf<MemberRow & { canonical_url: string }>(
      await this.db.execute(sql`select ${MEMBER_COLUMNS}, a.canonical_url from articles a
        where a.canonical_url = any(${column(all, 'text')}) order by a.id limit ${1000 * urlSets.length}`),
    );
    return urlSets.map((urls) => {
      const wanted = new Set(urls);
      return rows.filter((r) => wanted.has(r.canonical_url)).map(memberOf);
    });
  }

  byIds(ids: readonly string[]) {
    return ids.length ? this.members_(sql`a.id = any(${uuidArray(ids)})`) : Promise.resolve([]);
  }

  members(workIds: readonly string[]) {
    return workIds.length ? this.members_(inWorks(workIds), 1000 * workIds.length) : Promise.resolve([]);
  }

  async articleIdsByIdentifiers(keys: readonly IdentifierKey[]): Promise<string[]> {
    return (await this.byIdentifiers(keys)).map((m) => m.id);
  }

  async saveFingerprints(
    items: readonly { articleId: string; at: Date; fp: TextFingerprint | null; bands: number[] }[],
  ) {
    if (!items.length) return;
    await this.db.execute(sql`insert into work_fingerprints (article_id, at, shingles, signature, bands)
      select u.article_id, u.at, u.shingles, u.signature, u.bands::int[]
      from unnest(${plainColumn(
        items.map((i) => i.articleId),
        'uuid',
      )}, ${plainColumn(
        items.map((i) => i.at.toISOString()),
        'timestamptz',
      )}, ${plainColumn(
        items.map((i) => i.fp?.shingles ?? 0),
        'int',
      )}, ${column(
        items.map((i) => (i.fp ? signatureToText(i.fp.signature) : null)),
        'text',
      )}, ${column(
        items.map((i) => (i.bands.length ? `{${i.bands.join(',')}}` : null)),
        'text',
      )}) as u(article_id, at, shingles, signature, bands)
      on conflict (article_id) do update set at = excluded.at, shingles = excluded.shingles,
        signature = excluded.signature, bands = excluded.bands, linked_at = now()`);
  }

  async copyCandidatesEach(
    queries: readonly { articleId: string; bands: number[]; from: Date; to: Date }[],
    limit: number,
  ): Promise<Map<string, CopyCandidate[]>> {
    const out = new Map<string, CopyCandidate[]>(queries.map((q) => [q.articleId, []]));
    const banded = queries.filter((q) => q.bands.length);
    if (!banded.length) return out;
    // every article's buckets in one statement: a GIN lookup of its keys each, at most `limit`
    // candidates an article, as one article's own statement would read them
    const rows = rowsOf<MemberRow & { src: string; shingles: number; signature: string }>(
      await this.db.execute(sql`
        select q.src, ${MEMBER_COLUMNS}, c.shingles, c.signature
        from unnest(${plainColumn(
          banded.map((q) => q.articleId),
          'uuid',
        )}, ${plainColumn(
          banded.map((q) => q.from.toISOString()),
          'timestamptz',
        )}, ${plainColumn(
          banded.map((q) => q.to.toISOString()),
          'timestamptz',
        )}, ${column(
          banded.map((q) => `{${q.bands.join(',')}}`),
          'text',
        )}) as q(src, lo, hi, keys)
        cross join lateral (
          select f.article_id, f.shingles, f.signature from work_fingerprints f
          where f.bands && q.keys::int[] and f.at between q.lo and q.hi
            and f.article_id <> q.src and f.signature is not null
          order by f.article_id limit ${limit}) c
        join articles a on a.id = c.article_id`),
    );
    for (const r of rows)
      out.get(r.src)?.push({
        ...memberOf(r),
        fingerprint: { shingles: Number(r.shingles), signature: signatureFromText(r.signature) },
      });
    return out;
  }

  async saveReferences(items: readonly { articleId: string; refKeys: readonly string[] }[]) {
    if (!items.length) return;
    await this.db.execute(
      sql`delete from article_references where article_id = any(${uuidArray(items.map((i) => i.articleId))})`,
    );
    const rows = items.flatMap((i) =>
      [...new Set(i.refKeys)].filter((k) => k.length <= 2000).map((k) => sql`(${i.articleId}, ${k})`),
    );
    for (let from = 0; from < rows.length; from += 5000)
      await this.db.execute(
        sql`insert into article_references (article_id, ref_key) values ${sql.join(
          rows.slice(from, from + 5000),
          sql`, `,
        )} on conflict do nothing`,
      );
  }

  async decisions(articleIds: readonly string[]): Promise<WorkDecision[]> {
    if (!articleIds.length) return [];
    const ids = uuidArray(articleIds);
    return rowsOf<{ kind: 'apart' | 'together'; a: string; b: string }>(
      await this.db.execute(sql`select kind, article_a as a, article_b as b from work_decisions
        where article_a = any(${ids}) or article_b = any(${ids})`),
    );
  }

  async saveDecisions(decisions: readonly WorkDecision[], by: string | null) {
    for (let i = 0; i < decisions.length; i += 500) {
      const chunk = decisions.slice(i, i + 500).filter((d) => d.a !== d.b);
      if (!chunk.length) continue;
      await this.db.execute(sql`insert into work_decisions (kind, article_a, article_b, decided_by)
        values ${sql.join(
          chunk.map((d) => {
            const [a, b] = d.a < d.b ? [d.a, d.b] : [d.b, d.a];
            return sql`(${d.kind}, ${a}, ${b}, ${by})`;
          }),
          sql`, `,
        )}
        on conflict (article_a, article_b) do update set kind = excluded.kind,
          decided_by = excluded.decided_by, decided_at = now()`);
    }
  }

  async assign(assignments: readonly WorkAssignment[]): Promise<string[]> {
    const out: string[] = [];
    for (const w of assignments) {
      const members = uuidArray(w.memberIds);
      let id: string;
      if (w.memberIds.length === 1) {
        // a work of one article: no row, the article's own id
        id = w.memberIds[0]!;
        await this.db.execute(
          sql`update articles set work_id = null where id = ${id} and work_id is not null`,
        );
        if (w.workId) await this.db.execute(sql`delete from works where id = ${w.workId}`);
      } else {
        // the head moves first: head_article_id is unique across works
        await this.db.execute(
          sql`update works set head_article_id = null where head_article_id = ${w.headId}`,
        );
        if (w.workId) {
          id = w.workId;
          await this.db.execute(
            sql`update works set head_article_id = ${w.headId}, updated_at = now() where id = ${id}`,
          );
        } else {
          const [row] = rowsOf<{ id: string }>(
            await this.db.execute(sql`insert into works (head_article_id) values (${w.headId}) returning id`),
          );
          id = row!.id;
        }
        await this.db.execute(sql`update articles set work_id = ${id}
          where id = any(${members}) and work_id is distinct from ${id}`);
        // a read or favorite mark on one version is a mark on the work: versions joining it take
        // the marks of the others (docs/decisions/0143-marks-of-a-work.md)
        for (const table of [sql`article_reads`, sql`favorites`])
          await this.db.execute(sql`insert into ${table} (user_id, article_id)
            select distinct r.user_id, m.id from ${table} r cross join unnest(${members}) as m(id)
            where r.article_id = any(${members})
            on conflict do nothing`);
      }
      if (w.retiredIds.length)
        await this.db.execute(sql`delete from works where id = any(${uuidArray(w.retiredIds)})`);
      out.push(id);
    }
    return out;
  }

  async refreshCoverage(workIds: readonly string[]): Promise<void> {
    const ids = [...new Set(workIds)];
    for (let i = 0; i < ids.length; i += 200) {
      const chunk = ids.slice(i, i + 200);
      const counts = rowsOf<{ id: string; n: number | string }>(
        await this.db.execute(sql`with ${workKeys(chunk)},
          n as (select w, count(*)::int as n from c group by w)
          select m.id, coalesce(n.n, 0) as n from m left join n on n.w = m.w`),
      );
      if (!counts.length) continue;
      await this.db.execute(sql`delete from article_metrics where metric_key = ${COVERAGE_KEY}
        and article_id = any(${uuidArray(counts.map((c) => c.id))})`);
      const covered = counts.filter((c) => Number(c.n) > 0);
      if (covered.length)
        await this.db
          .execute(sql`insert into article_metrics (article_id, metric_key, value, source, refreshed_at)
          values ${sql.join(
            covered.map((c) => sql`(${c.id}, ${COVERAGE_KEY}, ${Number(c.n)}, 'works', now())`),
            sql`, `,
          )}`);
    }
  }

  async unlinked(since: Date, limit: number): Promise<string[]> {
    return rowsOf<{ id: string }>(
      await this.db.execute(sql`select a.id from articles a where ${unlinkedSince(since)}
        order by a.scraped_at, a.id limit ${limit}`),
    ).map((r) => r.id);
  }

  async unlinkedCount(since: Date): Promise<number> {
    const [row] = rowsOf<{ n: number | string }>(
      await this.db.execute(sql`select count(*)::int as n from articles a where ${unlinkedSince(since)}`),
    );
    return Number(row?.n ?? 0);
  }

  async work(id: string, maxCoverage: number) {
    const [found] = rowsOf<{ w: string }>(
      await this.db.execute(sql`select coalesce(a.work_id, a.id) as w from articles a where a.id = ${id}
        union all select w.id from works w where w.id = ${id} limit 1`),
    );
    if (!found) return null;
    const w = found.w;
    type Row = {
      article_id: string;
      source: string;
      url: string;
      title: string;
      doi: string | null;
      arxiv_id: string | null;
      published_at: Date | string | null;
      at: Date | string;
      citation_count: number | string | null;
    };
    const columns = sql`a.id as article_id, a.source, a.url, a.title, a.doi, a.arxiv_id, a.published_at,
      coalesce(a.published_at, a.scraped_at) as at,
      (select v.value from article_metrics v where v.article_id = a.id and v.metric_key = 'citation_count') as citation_count`;
    const view = (r: Row) => ({
      articleId: r.article_id,
      source: r.source,
      url: r.url,
      title: r.title,
      doi: r.doi,
      arxivId: r.arxiv_id,
      publishedAt: r.published_at === null ? null : date(r.published_at),
      citationCount: r.citation_count === null ? null : Number(r.citation_count),
    });
    const members = rowsOf<Row>(
      await this.db.execute(
        sql`select ${columns} from articles a where ${inWorks([w])} order by a.id limit 1000`,
      ),
    );
    if (!members.length) return null;
    const coverage = rowsOf<Row & { total: number | string }>(
      await this.db.execute(sql`with ${workKeys([w])}
        select ${columns}, count(*) over () as total from c join articles a on a.id = c.article_id
        order by coalesce(a.published_at, a.scraped_at) desc, a.id limit ${maxCoverage}`),
    );
    let coverageCount = Number(coverage[0]?.total ?? 0);
    if (coverage.length === maxCoverage) coverageCount = Math.max(coverageCount, maxCoverage);
    return {
      id: w,
      members: members.map((r) => ({ ...view(r), at: date(r.at) })),
      coverage: coverage.map(view),
      coverageCount,
    };
  }
}

/** final articles stored since `since` that the linker never looked at (no fingerprint row) */
const unlinkedSince = (since: Date) =>
  sql`a.scraped_at >= ${since.toISOString()} and a.processing_status not in ('new', 'analyzed')
    and not exists (select 1 from work_fingerprints f where f.article_id = a.id)`;
