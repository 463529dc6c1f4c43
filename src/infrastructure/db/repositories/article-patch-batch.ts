/**
 * Article patches of concurrent pipeline flows, written together: every patch queued while the
 * previous statement was in flight (or during the same turn of the event loop) goes out in one
 * `update ... from (values ...)` per patch shape. Each caller's promise still settles when its own
 * row is written, and a statement that fails is replayed row by row, so one bad article fails
 * alone with its own error, as it would have written by itself.
 *
 * The same statement keeps the runs' pending-article counts: a status is only written over a
 * pending one (a final status is never written twice), and each article given its final status
 * is taken off its run's count. The
 * write that takes a run's count to 0 answers `runEnded` (one caller per run, whichever worker).
 */
import { sql, type SQL } from 'drizzle-orm';
import { PENDING_ARTICLE_STATUSES } from '../../../domain/article-status.js';
import type { ArticlePatch, ArticleWrite } from '../../../application/pipeline/pipeline.ports.js';
import { rowsOf, type Db } from '../client.js';
import { storableJsonText } from '../storable-params.js';
import { articles, scraperRuns } from '../schema/index.js';

interface Queued {
  id: string;
  patch: ArticlePatch;
  at: Date;
  resolve(w: ArticleWrite): void;
  reject(err: unknown): void;
}

/** the patch fields in a fixed order, each with its column and how it is set */
const FIELDS = [
  ['content', articles.content.name, 'text'],
  ['language', articles.language.name, 'text'],
  ['summary', articles.summary.name, 'text'],
  ['processingStatus', articles.processingStatus.name, 'text'],
  ['processingError', articles.processingError.name, 'text'],
  // merged in SQL so that two handlers never overwrite each other's keys
  ['translations', articles.translations.name, 'merge'],
  ['metadata', articles.metadata.name, 'merge'],
] as const satisfies readonly (readonly [keyof ArticlePatch, string, 'text' | 'merge'])[];

type Field = (typeof FIELDS)[number];

const fieldsOf = (patch: ArticlePatch): Field[] => FIELDS.filter(([key]) => patch[key] !== undefined);

/** a field's value as its array element: jsonb goes as JSON text, cast back in the statement */
const elementOf = (patch: ArticlePatch, [key, , kind]: Field): string | null =>
  kind === 'merge' ? storableJsonText(patch[key]) : (patch[key] as string | null);

const PENDING = sql.join(
  PENDING_ARTICLE_STATUSES.map((st) => sql`${st}`),
  sql`, `,
);

/**
 * One statement for patches of the same shape (the same fields present), at most one per article:
 * answers the articles written, with `ended` true where the write left the article's run with
 * nothing pending. The rows go as one array parameter a column (`unnest`), not one parameter a
 * value: 64 rows of seven fields were ~450 parameters whose SQL Drizzle built chunk by chunk, the
 * largest share of its CPU in the pipeline (docs/performance.md, session 33).
 */
export function updateStatement(rows: { id: string; patch: ArticlePatch; at: Date }[]): SQL {
  const fields = fieldsOf(rows[0]!.patch);
  const arrays = [
    sql`${sql.param(rows.map((r) => r.id))}::uuid[]`,
    sql`${sql.param(rows.map((r) => r.at.toISOString()))}::timestamptz[]`,
    ...fields.map((f) => sql`${sql.param(rows.map((r) => elementOf(r.patch, f)))}::text[]`),
  ];
  const columns = sql.join(
    ['id', 'updated_at', ...fields.map(([, column]) => column)].map((c) => sql.identifier(c)),
    sql`, `,
  );
  const sets = sql.join(
    [
      sql`updated_at = v.updated_at`,
      ...fields.map(([, column, kind]) => {
        const c = sql.identifier(column);
        return kind === 'merge' ? sql`${c} = a.${c} || v.${c}::jsonb` : sql`${c} = v.${c}`;
      }),
    ],
    sql`, `,
  );
  // a status is written only over a pending one: a final status is never written twice
  const guard = fields.some(([key]) => key === 'processingStatus')
    ? sql` and a.processing_status in (${PENDING})`
    : sql``;
  return sql`with done as (
      update ${articles} as a set ${sets} from unnest(${sql.join(arrays, sql`, `)}) as v(${columns})
      where a.id = v.id${guard}
      returning a.id, a.run_id, a.processing_status),
    counted as (
      update ${scraperRuns} as r
      set articles_pending = r.articles_pending - c.n, progress_done = r.progress_done + c.n
      from (select run_id, count(*)::int as n from done
            where run_id is not null and processing_status not in (${PENDING}) group by run_id) as c
      where r.id = c.run_id
      returning r.id, r.articles_pending)
    select done.id::text as "id", done.run_id::text as "runId", coalesce(counted.articles_pending = 0, false) as "ended"
    from done left join counted on counted.id = done.run_id`;
}

/** each run ended by the statement is answered to one of its rows (the first) */
function settle(rows: Queued[], result: unknown): void {
  const ended = new Map<string, string>();
  for (const r of rowsOf<{ id: string; runId: string | null; ended: boolean }>(result))
    if (r.ended && r.runId && !ended.has(r.runId)) ended.set(r.runId, r.id);
  const enders = new Set(ended.values());
  for (const r of rows) r.resolve({ runEnded: enders.has(r.id) });
}

export class ArticlePatchBatch {
  private queue: Queued[] = [];
  private draining = false;

  constructor(
    private readonly db: Db,
    /** at most this many rows in one statement */
    private readonly maxRows = 200,
  ) {}

  /** resolves once the patch is stored; rejects with the database's error for this article */
  write(id: string, patch: ArticlePatch): Promise<ArticleWrite> {
    return new Promise<ArticleWrite>((resolve, reject) => {
      this.queue.push({ id, patch, at: new Date(), resolve, reject });
      if (this.draining) return;
      this.draining = true;
      // the rest of this turn's patches join the first statement
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const groups = new Map<string, Queued[]>();
        const later: Queued[] = [];
        const ids = new Set<string>();
        let taken = 0;
        for (const q of this.queue) {
          // a second patch of the same article waits for the next statement, in order
          if (taken >= this.maxRows || ids.has(q.id)) {
            later.push(q);
            continue;
          }
          ids.add(q.id);
          taken++;
          const shape = fieldsOf(q.patch)
            .map(([key]) => key)
            .join(',');
          const group = groups.get(shape);
          if (group) group.push(q);
          else groups.set(shape, [q]);
        }
        this.queue = later;
        await Promise.all([...groups.values()].map((g) => this.flush(g)));
      }
    } finally {
      this.draining = false;
    }
  }

  private async flush(rows: Queued[]): Promise<void> {
    if (rows.length > 1) {
      try {
        settle(rows, await this.db.execute(updateStatement(rows)));
        return;
      } catch {
        // one row's value failed the statement: write each alone so that only that one fails
      }
    }
    for (const r of rows) {
      try {
        settle([r], await this.db.execute(updateStatement([r])));
      } catch (err) {
        r.reject(err);
      }
    }
  }
}
