/**
 * Text the store keeps about failures (error messages, refused URLs) must itself be storable:
 * PostgreSQL refuses U+0000 in text and jsonb, and control characters garble logs and pages.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

/** C0 controls (except tab and newline) and DEL removed, at most `max` characters. */
export function storableText(text: string, max = 2000): string {
  const clean = text.replace(CONTROL, '');
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** true when the text holds a character PostgreSQL cannot store (U+0000) */
// eslint-disable-next-line no-control-regex
export const unstorable = (text: string): boolean => /\u0000/.test(text);

/** The SQLSTATE of a driver error, also when Drizzle wraps it (`cause`). */
export function sqlState(err: unknown): string | null {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = e.cause as typeof e;
  }
  return null;
}

/**
 * An error caused by the values of a row, not by the database being away: data exceptions
 * (class 22: a NUL byte, a bad date or encoding), integrity violations (23) and program limits
 * such as an index row too large (54). Only these are worth retrying row by row.
 */
export function isRowError(err: unknown): boolean {
  const state = sqlState(err);
  return state !== null && ['22', '23', '54'].includes(state.slice(0, 2));
}

/** The innermost message of a (possibly wrapped) error, made storable. */
export function errorText(err: unknown): string {
  let e = err as { message?: unknown; cause?: unknown } | undefined;
  let text = String(err);
  for (let depth = 0; e && depth < 5; depth++) {
    if (typeof e.message === 'string' && e.message) text = e.message;
    e = e.cause as typeof e;
  }
  return storableText(text, 500);
}
