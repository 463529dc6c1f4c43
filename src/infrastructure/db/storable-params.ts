/**
 * The one gate between the service and the database for text: every bind parameter of every
 * statement Drizzle builds (query builders, `db.execute(sql…)`, transactions) passes here, whatever
 * repository wrote it. PostgreSQL refuses U+0000 in text and jsonb ("invalid byte sequence",
 * "unsupported Unicode escape sequence") and a lone UTF-16 surrogate has no UTF-8 form, so one such
 * character from a feed, a page, a model or an error message would fail the whole statement: here
 * U+0000 is dropped and a lone surrogate becomes U+FFFD, in strings, in arrays and objects the driver
 * serialises, and inside the JSON text of jsonb columns. Nothing else is changed: bounds and other
 * cleaning are the columns' own business (safe-text.ts, domain/text.ts). JSON text that a
 * repository builds by hand is not known to be JSON here: it is built with `storableJsonText`.
 */
import type { PgDialect } from 'drizzle-orm/pg-core';

// eslint-disable-next-line no-control-regex -- finding U+0000 is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');
/** JSON escapes of U+0000 and of surrogates (a JSON.stringify of a lone one writes `\udXXX`) */
const JSON_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** `text` without U+0000, its lone surrogates replaced by U+FFFD */
export function storableString(text: string): string {
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE_ALL, (c) => (c === '\u0000' ? '' : '\uFFFD')) : text;
}

const isPlainObject = (v: object): v is Record<string, unknown> => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

/** strings cleaned at any depth of plain objects and arrays (keys too); other values as they are */
export function storableValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return storableString(value);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => storableValue(v, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[storableString(k)] = storableValue(v, depth + 1);
  return out;
}

/** a jsonb parameter as Drizzle sends it (JSON text): its escaped U+0000 and lone surrogates cleaned */
export function storableJson(json: string): string {
  if (!JSON_ESCAPE.test(json)) return json;
  try {
    return JSON.stringify(storableValue(JSON.parse(json)));
  } catch {
    return storableString(json);
  }
}

/**
 * JSON text a repository builds by hand for a jsonb value (a bulk insert's jsonb[], a merge patch):
 * Drizzle does not know it is JSON, so it is made storable before it is written.
 */
export const storableJsonText = (value: unknown): string => JSON.stringify(storableValue(value));

type QueryWithTypings = ReturnType<PgDialect['sqlToQuery']>;

function storableQuery(query: QueryWithTypings): QueryWithTypings {
  const params = query.params.map((p, i) =>
    typeof p === 'string' && query.typings?.[i] === 'json' ? storableJson(p) : storableValue(p),
  );
  return { ...query, params };
}

/**
 * Makes every statement of `db` pass through the gate. Drizzle turns each statement into SQL text
 * and parameters in one dialect method shared by the database, its transactions and raw `execute`;
 * wrapping it there covers them all. A Drizzle without that method stops the start, loudly.
 */
export function withStorableParams<T extends object>(db: T): T {
  const dialect = (db as unknown as { dialect?: PgDialect }).dialect;
  if (!dialect || typeof dialect.sqlToQuery !== 'function')
    throw new Error('drizzle-orm changed: the dialect of the database has no sqlToQuery to guard');
  const toQuery = dialect.sqlToQuery.bind(dialect);
  dialect.sqlToQuery = (sql, invokeSource) => storableQuery(toQuery(sql, invokeSource));
  return db;
}
