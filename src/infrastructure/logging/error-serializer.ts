import { pino } from 'pino';

/** SQLSTATE: five digits or upper-case letters (node-postgres and PGlite errors carry it as `code`) */
const SQLSTATE = /^[0-9A-Z]{5}$/;
const MAX_MESSAGE = 1000;
const MAX_STACK = 4000;

interface DbErrorLike {
  code?: unknown;
  table?: unknown;
  constraint?: unknown;
  column?: unknown;
  schema?: unknown;
  severity?: unknown;
  routine?: unknown;
  cause?: unknown;
  name?: unknown;
  query?: unknown;
  params?: unknown;
}

/** The database error in an error's cause chain (drizzle wraps the driver's error). */
function databaseError(err: unknown): DbErrorLike | null {
  let e = err as DbErrorLike | undefined;
  for (let depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const isDriverError =
      typeof e.code === 'string' &&
      SQLSTATE.test(e.code) &&
      ('severity' in e || 'routine' in e || 'table' in e || 'constraint' in e);
    if (isDriverError) return e;
    e = e.cause as DbErrorLike | undefined;
  }
  return null;
}

const isQueryError = (err: unknown) =>
  !!err && typeof err === 'object' && ('params' in err || (err as DbErrorLike).name === 'DrizzleQueryError');

/**
 * `err` fields of log lines. A database error is logged as its SQLSTATE code, table, column and
 * constraint only: its message, detail ("Key (email)=(...)") and the wrapping query error's bind
 * parameters hold user data (e-mails, password hashes, API keys). Other errors keep a bounded
 * message and stack; the line scrubber still runs over them.
 */
export function serializeError(err: unknown): unknown {
  if (!err || typeof err !== 'object') return typeof err === 'string' ? err.slice(0, MAX_MESSAGE) : err;
  const db = databaseError(err);
  if (db || isQueryError(err)) {
    const pick = (v: unknown) => (typeof v === 'string' ? v : undefined);
    return {
      type: 'DatabaseError',
      code: pick(db?.code),
      table: pick(db?.table),
      column: pick(db?.column),
      constraint: pick(db?.constraint),
      routine: pick(db?.routine),
    };
  }
  if (!(err instanceof Error)) return err;
  const out = pino.stdSerializers.err(err) as unknown as Record<string, unknown>;
  if (typeof out.message === 'string') out.message = out.message.slice(0, MAX_MESSAGE);
  if (typeof out.stack === 'string') out.stack = out.stack.slice(0, MAX_STACK);
  if (out.cause && typeof out.cause === 'object' && databaseError(err.cause))
    out.cause = serializeError(err.cause);
  return out;
}
