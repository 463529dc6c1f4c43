/**
 * The Google Reader API's names for our things (docs/decisions/0112-google-reader-api.md): item ids,
 * stream ids, and the labels topics become. Pure functions, no I/O.
 */

/** the long form of an item id: this prefix, then 16 lower-case hex digits */
export const LONG_ITEM_PREFIX = 'tag:google.com,2005:reader/item/';

export const STATE = {
  readingList: 'user/-/state/com.google/reading-list',
  read: 'user/-/state/com.google/read',
  starred: 'user/-/state/com.google/starred',
  kept: 'user/-/state/com.google/kept-unread',
} as const;

/**
 * The label of the best articles of every topic, ranked (citations, then views). One name in both
 * languages of the app: a label is an id to a Reader client, it cannot follow the reader's locale.
 */
export const TOP_LABEL = '★ Top · 精選';

const UUID = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHORT_HEX = /^[0-9a-f]{1,16}$/i;
const DECIMAL = /^-?\d{1,20}$/;
const U64 = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);

/**
 * An article's 64-bit item id: the first 64 bits of its (random, version 4) uuid, as 16 hex digits.
 * Nothing is stored for it: the uuid's primary-key index finds the article by the range of uuids that
 * begin with it (60 random bits: a clash is about one in 10^6 at a million articles, and then the
 * smaller uuid wins, always the same one).
 */
export function itemHex(uuid: string): string {
  const m = UUID.exec(uuid);
  if (!m) throw new Error(`not a uuid: ${uuid}`);
  return `${m[1]}${m[2]}${m[3]}`.toLowerCase();
}

export const longItemId = (uuid: string) => LONG_ITEM_PREFIX + itemHex(uuid);

/** The decimal form, as Google Reader wrote it: the 64 bits read as a signed integer. */
export const decimalItemId = (uuid: string) => BigInt.asIntN(64, BigInt(`0x${itemHex(uuid)}`)).toString();

/**
 * Any form a client sends back to 16 hex digits: the long form (NetNewsWire leaves out its leading
 * zeros), a decimal (signed or unsigned 64-bit) or the short hex form (Reeder's: 16 digits, zero
 * padded). null when it is none of them. A bare string of digits is read as decimal, as Google
 * Reader and its clients do, unless it begins with a zero: then it is the padded hex form (FreshRSS
 * and Miniflux read `0000000000000468` as 0x468; a decimal id never begins with 0).
 */
export function parseItemId(raw: string): string | null {
  const s = raw.trim();
  if (s.startsWith(LONG_ITEM_PREFIX)) {
    const hex = s.slice(LONG_ITEM_PREFIX.length);
    return SHORT_HEX.test(hex) ? hex.toLowerCase().padStart(16, '0') : null;
  }
  if (s.length > 1 && s.startsWith('0') && SHORT_HEX.test(s)) return s.toLowerCase().padStart(16, '0');
  if (DECIMAL.test(s)) {
    const n = BigInt(s);
    if (n < I64_MIN || n > U64) return null;
    return BigInt.asUintN(64, n).toString(16).padStart(16, '0');
  }
  if (SHORT_HEX.test(s)) return s.toLowerCase().padStart(16, '0');
  return null;
}

/** The uuids that begin with these 64 bits: [lowest, highest] of the primary key's range. */
export function uuidRange(hex: string): [string, string] {
  const h = hex.toLowerCase();
  const head = `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}`;
  return [`${head}-0000-000000000000`, `${head}-ffff-ffffffffffff`];
}

export type Stream =
  | { kind: 'reading-list' }
  | { kind: 'starred' }
  | { kind: 'read' }
  | { kind: 'top' }
  | { kind: 'label'; name: string }
  | { kind: 'feed'; url: string };

/**
 * A stream id: `user/-/state/com.google/…`, `user/-/label/<name>` (also with the user's own id or
 * a number in place of `-`, as some clients send), or `feed/<url>`. null: not one we know.
 */
export function parseStream(raw: string): Stream | null {
  const s = raw.trim();
  if (s.startsWith('feed/')) {
    const url = s.slice('feed/'.length);
    return /^https?:\/\/\S+$/i.test(url) ? { kind: 'feed', url } : null;
  }
  const m = /^user\/[^/]+\/(state\/com\.google|label)\/(.+)$/.exec(s);
  if (!m) return null;
  const name = m[2]!;
  if (m[1] === 'label') return name === TOP_LABEL ? { kind: 'top' } : { kind: 'label', name };
  if (name === 'reading-list') return { kind: 'reading-list' };
  if (name === 'starred') return { kind: 'starred' };
  if (name === 'read') return { kind: 'read' };
  return null;
}

export const labelId = (name: string) => `user/-/label/${name}`;
export const feedId = (url: string) => `feed/${url}`;
