import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { NewSourceFetch } from '../../../application/pipeline/pipeline.ports.js';
import type { SourceFetchHistory } from '../../../application/catalog/sources.ports.js';
import {
  FEED_PROBLEMS,
  SOURCE_FETCHES_KEPT,
  type FeedProblemCode,
  type SourceFetch,
} from '../../../domain/catalog.js';
import type { Db } from '../client.js';
import { storableText } from '../safe-text.js';
import { sourceFetches } from '../schema/index.js';

/** a fetch error as the history keeps it */
const ERROR_MAX = 1000;

const fetchOf = (r: typeof sourceFetches.$inferSelect): SourceFetch => ({
  id: r.id,
  sourceId: r.sourceId,
  runId: r.runId,
  startedAt: r.startedAt,
  durationMs: r.durationMs,
  httpStatus: r.httpStatus,
  itemsSeen: r.itemsSeen,
  itemsNew: r.itemsNew,
  itemsDuplicate: r.itemsDuplicate,
  errorCode: (FEED_PROBLEMS as readonly string[]).includes(r.errorCode ?? '')
    ? (r.errorCode as FeedProblemCode)
    : r.errorCode === null
      ? null
      : 'unknown',
  error: r.error,
});

const COLUMN = { itemsNew: 'items_new', itemsDuplicate: 'items_duplicate' } as const;

/** The scraper's fetch results per source: written by the run, read by the admin page. */
export class DrizzleSourceFetchRepository implements SourceFetchHistory {
  constructor(private readonly db: Db) {}

  async add(rows: NewSourceFetch[]): Promise<void> {
    if (!rows.length) return;
    await this.db.insert(sourceFetches).values(
      rows.map((r) => ({
        ...r,
        durationMs: Math.max(0, Math.round(r.durationMs)),
        // what a feed server said is outside text: storable, bounded
        error: r.error === null ? null : storableText(r.error, ERROR_MAX),
      })),
    );
    // prune on write: the newest SOURCE_FETCHES_KEPT per source stay
    const ids = [...new Set(rows.map((r) => r.sourceId))];
    await this.db.execute(sql`
      delete from source_fetches where id in (
        select id from (
          select id, row_number() over (
            partition by source_id order by started_at desc, id desc
          ) as n
          from source_fetches
          where source_id in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})
        ) ranked
        where n > ${SOURCE_FETCHES_KEPT}
      )`);
  }

  async setCounts(
    runId: string,
    field: 'itemsNew' | 'itemsDuplicate',
    counts: Map<string, number>,
  ): Promise<void> {
    const column = field === 'itemsNew' ? sourceFetches.itemsNew : sourceFetches.itemsDuplicate;
    const open = await this.db
      .select({ id: sourceFetches.id, sourceId: sourceFetches.sourceId })
      .from(sourceFetches)
      .where(and(eq(sourceFetches.runId, runId), isNull(column)));
    if (!open.length) return;
    // one statement for the whole run, however many sources it read
    const values = sql.join(
      open.map((r) => sql`(${r.id}::uuid, ${counts.get(r.sourceId) ?? 0}::int)`),
      sql`, `,
    );
    await this.db.execute(sql`
      update source_fetches as f set ${sql.identifier(COLUMN[field])} = v.n
      from (values ${values}) as v(id, n)
      where f.id = v.id`);
  }

  async list(sourceId: string, limit: number): Promise<SourceFetch[]> {
    const rows = await this.db
      .select()
      .from(sourceFetches)
      .where(eq(sourceFetches.sourceId, sourceId))
      .orderBy(desc(sourceFetches.startedAt), desc(sourceFetches.id))
      .limit(limit);
    return rows.map(fetchOf);
  }

  async latest(sourceIds: string[]): Promise<Map<string, SourceFetch>> {
    if (!sourceIds.length) return new Map();
    const rows = await this.db
      .selectDistinctOn([sourceFetches.sourceId])
      .from(sourceFetches)
      .where(inArray(sourceFetches.sourceId, sourceIds))
      .orderBy(sourceFetches.sourceId, desc(sourceFetches.startedAt), desc(sourceFetches.id));
    return new Map(rows.map((r) => [r.sourceId, fetchOf(r)]));
  }
}
