/**
 * Read-only statements that PostgreSQL parses and analyses once per connection instead of once per
 * request: the articles list's page and count, sent tens of times a second by readers, are ~1.5 KB
 * of SQL whose parse and analysis cost the server ~0.2 ms a request, as much as a sixth of the page.
 * Each distinct text gets a named statement (node-postgres sends its Parse once on each pool
 * connection, then only Bind and Execute). PostgreSQL still plans each execution with the request's
 * values: the pool's connections run with `plan_cache_mode = force_custom_plan` (client.ts), since a
 * generic plan of the list, with its LIMIT unknown, reads and sorts the whole table (64 ms against
 * 1.2 ms at 200,000 articles).
 *
 * Bounded: at most MAX_KEPT distinct texts a process (the list's shapes are a few dozen; a search's
 * text is not kept, since the repository sends it in a transaction of its own). Where named
 * statements do not work (a transaction-mode PgBouncer before 1.21 answers "prepared statement ...
 * does not exist" or "already exists"), the statement is sent again unnamed and this process stops
 * naming statements. PGlite has no connections to keep them on: there a statement runs as it is.
 */
import { createHash } from 'node:crypto';
import { entityKind, type SQL } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';
import { sqlState } from './safe-text.js';

/** distinct statements a process names at most */
export const MAX_KEPT = 128;

/** PostgreSQL's invalid_sql_statement_name and duplicate_prepared_statement */
const NAMING_FAILED = new Set(['26000', '42P05']);

interface PreparingSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: undefined,
    name: string | undefined,
    isResponseInArrayMode: boolean,
  ): { execute(): Promise<unknown> };
}

const names = new Map<string, string>();
let naming = true;

const isNodePg = (session: object) =>
  (session.constructor as unknown as Record<symbol, unknown>)[entityKind] === 'NodePgSession';

/** `statement` (read-only: it may be sent twice) under a name of its own on PostgreSQL */
export async function executeKept(db: Db, statement: SQL): Promise<unknown> {
  const session = db._.session as unknown as PreparingSession;
  if (!naming || !isNodePg(session)) return db.execute(statement);
  // the dialect's sqlToQuery: the one every statement of the database passes (storable-params.ts)
  const query = (db as unknown as { dialect: PgDialect }).dialect.sqlToQuery(statement);
  let name = names.get(query.sql);
  if (!name && names.size < MAX_KEPT) {
    name = `kept_${createHash('sha1').update(query.sql).digest('base64url')}`;
    names.set(query.sql, name);
  }
  try {
    return await session.prepareQuery(query, undefined, name, false).execute();
  } catch (err) {
    if (!name || !NAMING_FAILED.has(sqlState(err) ?? '')) throw err;
    naming = false;
    return session.prepareQuery(query, undefined, undefined, false).execute();
  }
}

/** how many statements this process has named, and whether it still names them (tests) */
export const keptStatements = () => ({ named: names.size, naming });

/**
 * Forgets the names and names statements again (tests: a test file leaves no state for the next
 * one in its worker). A connection that parsed a statement keeps it: the same text gets the same
 * name again.
 */
export function resetKeptStatements(): void {
  names.clear();
  naming = true;
}
