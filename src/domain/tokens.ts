/**
 * Personal access tokens: a signed-in user's named, revocable credentials for scripts, feed apps
 * and assistants. A `read` token may only read; a `write` token may also change the user's own
 * state (read marks, favorites) and, when it is an admin token, what an admin may change.
 */
export const TOKEN_SCOPES = ['read', 'write'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** What every token starts with: recognisable in a leak scan, a log line or a config file. */
export const TOKEN_PREFIX = 'ais_pat_';
/** base62 characters of the public lookup key that follows the prefix */
export const TOKEN_KEY_LENGTH = 10;
/** base62 characters of the secret part (~238 bits) */
export const TOKEN_SECRET_LENGTH = 40;
/** tokens one account may hold at once */
export const MAX_TOKENS_PER_USER = 50;
/** last_used_at is written at most this often per token */
export const LAST_USED_RESOLUTION_MS = 60_000;

const SHAPE = new RegExp(
  `^${TOKEN_PREFIX}([0-9A-Za-z]{${TOKEN_KEY_LENGTH}})_[0-9A-Za-z]{${TOKEN_SECRET_LENGTH}}$`,
);

/** The lookup key of a well-formed token; null for anything else (a session token, garbage). */
export function tokenKeyOf(token: string): string | null {
  return SHAPE.exec(token)?.[1] ?? null;
}

/** Whether a bearer credential is meant as a personal access token (well-formed or not). */
export const looksLikeAccessToken = (credential: string): boolean => credential.startsWith(TOKEN_PREFIX);

/** HTTP methods a `read` token may use. */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);
