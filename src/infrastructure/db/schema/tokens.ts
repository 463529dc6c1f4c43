import { boolean, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common.js';
import { users } from './users.js';

/**
 * Personal access tokens. The token is `ais_pat_<key>_<secret>`: `key` finds the row, and only the
 * SHA-256 of the whole token is kept, compared in constant time, so a copy of the table signs no
 * one in. `admin` is fixed at creation (an admin's own session made it) and never raised later.
 */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    admin: boolean('admin').notNull().default(false),
    tokenKey: text('token_key').notNull().unique(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  // one name per account; the index also serves "the tokens of this account" (its first column)
  (t) => [unique('access_tokens_user_name_uq').on(t.userId, t.name)],
);
