/** URL- and identifier-safe slug: lowercase ascii words joined by '-'. Keeps CJK letters. */
export function slugify(input: string): string {
  return input
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

/** "machine learning" → "Machine Learning"; words already in capitals (LLM) are kept. */
export function titleCase(input: string): string {
  return input
    .trim()
    .replace(/[\s_-]+/g, ' ')
    .split(' ')
    .filter(Boolean)
    .map((w) =>
      w === w.toUpperCase() && w.length > 1 ? w : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase(),
    )
    .join(' ');
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// C0 controls other than tab and newline, DEL, and the non-characters U+FFFE/U+FFFF: PostgreSQL
// refuses U+0000 in text and jsonb, and none of them carry meaning in a title or an article.
// eslint-disable-next-line no-control-regex
const CONTROLS = /\r\n?|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]/g;

/**
 * Untrusted text made safe to store: controls removed (CR and CRLF become a newline) and lone UTF-16
 * surrogates replaced by U+FFFD, so no field read from a feed or a page can stop a database write.
 */
export function cleanText(input: string): string {
  return input.replace(LONE_SURROGATE, '\uFFFD').replace(CONTROLS, (m) => (m[0] === '\r' ? '\n' : ''));
}

/** `cleanText` for an optional value; an empty result becomes null. */
export const cleanOptional = (input: string | null | undefined): string | null =>
  input == null ? null : cleanText(input) || null;

/** One line of plain text: whitespace runs become one space, no space at either end. */
export function oneLine(input: string): string {
  return input.replace(/\s+/g, ' ').trim();
}
