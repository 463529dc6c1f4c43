/**
 * Whether a failure may pass if tried again later: a peer that is busy or away (HTTP 408, 425, 429,
 * 5xx; connection refused, reset or timed out) or a database that is restarting, overloaded, out of
 * free pool connections or found a deadlock. Anything else (a refusal, bad input, a bug) fails the
 * same way every time.
 */
const TRANSIENT_HTTP = new Set([408, 425, 429, 500, 502, 503, 504]);
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  // PostgreSQL: connection exceptions, serialization failure, deadlock, too many connections,
  // admin/crash shutdown, cannot connect now
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '40001',
  '40P01',
  '53300',
  '57P01',
  '57P02',
  '57P03',
]);
const TRANSIENT_NAMES = new Set([
  'APIConnectionError',
  'APIConnectionTimeoutError',
  'TimeoutError',
  'ConnectTimeoutError',
]);

/**
 * A database or cache connection that could not be had or was lost, as the drivers say it in plain
 * errors without a code: node-postgres's pool when no connection frees up in time ("timeout
 * exceeded when trying to connect", a busy pool on a loaded machine), its client when connecting
 * takes too long ("timeout expired"; through a pool "Connection terminated due to connection
 * timeout") or the server drops the connection ("Connection terminated unexpectedly"), ioredis's
 * "Connection is closed". The HTTP layer answers these 503 (`isStoreUnavailable`); a job tries them
 * again. Anchored at the start: an ORM's wrapper says "Failed query: …" with the statement's
 * parameters (outside text) and keeps the driver's error as its cause, which is read in turn.
 */
export const STORE_CONNECTION_MESSAGES =
  /^(connection terminated|connection refused|timeout exceeded when trying to connect|timeout expired$|connection is closed|client has encountered a connection error)/i;

export function isTransientError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { status?: unknown; code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
  if (typeof e.status === 'number' && TRANSIENT_HTTP.has(e.status)) return true;
  if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
  if (typeof e.name === 'string' && TRANSIENT_NAMES.has(e.name)) return true;
  if (typeof e.message === 'string' && STORE_CONNECTION_MESSAGES.test(e.message)) return true;
  return isTransientError(e.cause, depth + 1);
}
