import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type {
  AnsweringProvider,
  AskDocument,
  AskFilter,
  AskHistory,
  AskHistoryEntry,
  AskSearch,
  FullTextResult,
  WindowArticle,
} from '../../../application/ask/ask.ports.js';
import type { Vector } from '../../../application/shared/embedding.js';
import type { AskLanguage } from '../../../domain/ask.js';
import { PREFIX_MIN_CHARS } from '../../../domain/search.js';
import { rowsOf, type Db } from '../client.js';
import { articleEmbeddings, articles, askHistory } from '../schema/index.js';
import { DrizzleArticleEmbeddingStore } from './article-embedding.repository.js';
import { DrizzleProviderRepository, DrizzleTopicRepository } from './catalog.repository.js';

/** what retrieval reads of an article's content: its passages are cut from the opening */
const CONTENT_CHARS = 20_000;
const SUMMARY_CHARS = 4_000;

/** `'word':*` (or whole below the prefix length) and `'字詞'`: letters and digits only, so nothing reaches tsquery syntax */
function termQuery(term: string, cjk: boolean): string | null {
  const clean = term.replace(/[^\p{L}\p{N}]/gu, '');
  if (!clean) return null;
  return cjk || [...clean].length < PREFIX_MIN_CHARS ? `'${clean}'` : `'${clean}':*`;
}

function filterSql(filter: AskFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (filter.topicId)
    parts.push(
      sql`exists (select 1 from article_topics t where t.article_id = a.id and t.topic_id = ${filter.topicId}::uuid)`,
    );
  if (filter.since)
    parts.push(sql`coalesce(a.published_at, a.scraped_at) >= ${filter.since.toISOString()}::timestamptz`);
  return sql.join(parts, sql` and `);
}

/** Retrieval over the articles for POST /ask: the full-text index, stored text, recent vectors. */
export class DrizzleAskSearch implements AskSearch {
  private readonly vectors: DrizzleArticleEmbeddingStore;

  constructor(private readonly db: Db) {
    this.vectors = new DrizzleArticleEmbeddingStore(db);
  }

  async fullText(
    terms: { words: string[]; bigrams: string[] },
    filter: AskFilter,
    perTerm: number,
  ): Promise<FullTextResult> {
    const queries = [
      ...terms.words.map((w) => termQuery(w, false)),
      ...terms.bigrams.map((b) => termQuery(b, true)),
    ];
    const branches = queries.flatMap((q, i) =>
      q
        ? [
            sql`(select ${i}::int as t, a.id from articles a
                 where a.search_vector @@ to_tsquery('english'::regconfig, ${q}) and ${filterSql(filter)}
                 limit ${perTerm})`,
          ]
        : [],
    );
    const empty = { hits: [], termCounts: queries.map(() => 0), perTerm };
    if (!branches.length) return empty;
    const any = queries.filter(Boolean).join(' | ');
    const rows = rowsOf<{ id: string; terms: number[]; rank: number }>(
      await this.db.execute(sql`
        with hits as (${sql.join(branches, sql` union all `)}),
        agg as (select id, array_agg(t order by t) as terms from hits group by id)
        select agg.id, agg.terms, ts_rank_cd(a.search_vector, to_tsquery('english'::regconfig, ${any}))::float8 as rank
        from agg join articles a on a.id = agg.id`),
    );
    const termCounts = queries.map(() => 0);
    for (const r of rows) for (const t of r.terms) termCounts[t] = (termCounts[t] ?? 0) + 1;
    return { hits: rows.map((r) => ({ ...r, rank: Number(r.rank) })), termCounts, perTerm };
  }

  async documents(ids: readonly string[]): Promise<AskDocument[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .select({
        id: articles.id,
        title: articles.title,
        url: articles.url,
        source: articles.source,
        publishedAt: articles.publishedAt,
        summary: sql<string | null>`left(${articles.summary}, ${SUMMARY_CHARS})`,
        content: sql<string | null>`left(${articles.content}, ${CONTENT_CHARS})`,
        translation: sql<{ title?: unknown; summary?: unknown } | null>`${articles.translations}->'zh-TW'`,
      })
      .from(articles)
      .where(inArray(articles.id, [...ids]));
    return rows.map((r) => ({
      ...r,
      translation:
        r.translation && typeof r.translation.title === 'string'
          ? {
              title: r.translation.title,
              summary: typeof r.translation.summary === 'string' ? r.translation.summary : null,
            }
          : null,
    }));
  }

  async recent(topicId: string | null, limit: number): Promise<WindowArticle[]> {
    // (topic_id, scraped_at, id) or (scraped_at, id) read backwards: `limit` index entries
    const rows = await this.db
      .select({
        id: articles.id,
        title: articles.title,
        summary: articles.summary,
        at: sql<string>`coalesce(${articles.publishedAt}, ${articles.scrapedAt})`,
        embedding: articleEmbeddings.embedding,
        sparse: articleEmbeddings.sparseEmbedding,
      })
      .from(articles)
      .leftJoin(articleEmbeddings, eq(articleEmbeddings.articleId, articles.id))
      .where(topicId ? eq(articles.topicId, topicId) : undefined)
      .orderBy(desc(articles.scrapedAt), desc(articles.id))
      .limit(limit);
    return rows.map((r) => ({
      id: r.id,
      // what similar articles embed too, so that one stored vector serves both
      text: `${r.title}\n${(r.summary ?? '').slice(0, 2000)}`.trim(),
      vector: r.embedding ?? r.sparse ?? null,
      at: new Date(r.at).getTime(),
    }));
  }

  saveVectors(vectors: { articleId: string; vector: Vector }[]): Promise<void> {
    return this.vectors.save(vectors);
  }
}

/** The asker's own history of questions and answers (ask_history). */
export class DrizzleAskHistory implements AskHistory {
  constructor(private readonly db: Db) {}

  async add(userId: string, entry: Omit<AskHistoryEntry, 'id' | 'createdAt'>, keep: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.insert(askHistory).values({ userId, ...entry });
      await tx.execute(sql`
        delete from ask_history where id in (
          select id from ask_history where user_id = ${userId}::uuid
          order by created_at desc, id desc offset ${keep})`);
    });
  }

  async list(userId: string, page: { limit: number; offset: number }) {
    const mine = eq(askHistory.userId, userId);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(askHistory)
        .where(mine)
        .orderBy(desc(askHistory.createdAt), desc(askHistory.id))
        .limit(page.limit)
        .offset(page.offset),
      this.db.select({ n: count() }).from(askHistory).where(mine),
    ]);
    return {
      items: rows.map((r): AskHistoryEntry => ({
        id: r.id,
        question: r.question,
        language: r.language as AskLanguage,
        answer: r.answer,
        abstained: r.abstained,
        method: r.method === 'model' ? 'model' : 'extractive',
        citations: r.citations,
        createdAt: r.createdAt,
      })),
      total: total?.n ?? 0,
    };
  }

  async clear(userId: string): Promise<number> {
    const gone = await this.db
      .delete(askHistory)
      .where(and(eq(askHistory.userId, userId)))
      .returning({ id: askHistory.id });
    return gone.length;
  }
}

/** Who writes answers (providers) and whether a topic exists (topics): the catalog's tables, read-only. */
export class DrizzleAnsweringProvider implements AnsweringProvider {
  private readonly providers: DrizzleProviderRepository;
  private readonly topics: DrizzleTopicRepository;

  constructor(db: Db) {
    this.providers = new DrizzleProviderRepository(db);
    this.topics = new DrizzleTopicRepository(db);
  }

  async answeringProvider() {
    return (await this.providers.findActive('text')) ?? (await this.providers.findActive('multimodal'));
  }

  async topicExists(id: string) {
    return (await this.topics.get(id)) !== null;
  }
}
