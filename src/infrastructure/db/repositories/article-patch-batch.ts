/**
 * Article patches of concurrent pipeline flows, written together: every patch queued while the
 * previous statement was in flight (or during the same turn of the event loop) goes out in one
 * `update ... from (values ...)` per patch shape. Each caller's promise still settles when its own
 * row is written, and a statement that fails is replayed row by row, so one bad article fails
 * alone with its own error, as it would have written by itself.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ArticlePatch } from '../../../application/pipeline/pipeline.ports.js';
import type { Db } from '../client.js';
import { articles } from '../schema/index.js';

interface Queued {
  id: string;
  patch: ArticlePatch;
  at: Date;
  resolve(): void;
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

const valueOf = (patch: ArticlePatch, [key, , kind]: Field): SQL =>
  kind === 'merge' ? sql`${JSON.stringify(patch[key])}::jsonb` : sql`${patch[key] as string | null}::text`;

/** One statement for patches of the same shape (the same fields present), at most one per article. */
export function updateStatement(rows: { id: string; patch: ArticlePatch; at: Date }[]): SQL {
  const fields = fieldsOf(rows[0]!.patch);
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${sql.join(
          [
            sql`${r.id}::uuid`,
            sql`${r.at.toISOString()}::timestamptz`,
            ...fields.map((f) => valueOf(r.patch, f)),
          ],
          sql`, `,
        )})`,
    ),
    sql`, `,
  );
  const columns = sql.join(
    ['id', 'updated_at', ...fields.map(([, column]) => column)].map((c) => sql.identifier(c)),
    sql`, `,
  );
  const sets = sql.join(
    [
      sql`updated_at = v.updated_at`,
      ...fields.map(([, column, kind]) => {
        const c = sql.identifier(column);
        return kind === 'merge' ? sql`${c} = a.${c} || v.${c}` : sql`${c} = v.${c}`;
      }),
    ],
    sql`, `,
  );
  return sql`update ${articles} as a set ${sets} from (values ${values}) as v(${columns}) where a.id = v.id`;
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
  write(id: string, patch: ArticlePatch): Promise<void> {
    return new Promise<void>((resolve, reject) => {
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
        await this.db.execute(updateStatement(rows));
        for (const r of rows) r.resolve();
        return;
      } catch {
        // one row's value failed the statement: write each alone so that only that one fails
      }
    }
    for (const r of rows) {
      try {
        await this.db.execute(updateStatement([r]));
        r.resolve();
      } catch (err) {
        r.reject(err);
      }
    }
  }
}
