import {
  boolean,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
  index,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { topics } from './catalog.js';
import { articles } from './articles.js';

export const users = pgTable('users', {
  id: id(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  displayName: text('display_name'),
  role: text('role', { enum: ['user', 'admin'] })
    .notNull()
    .default('user'),
  /** bumped on sign-out: every token signed with an older version is refused */
  tokenVersion: integer('token_version').notNull().default(0),
  /** set by an admin: the account cannot sign in and its tokens are refused */
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const favorites = pgTable(
  'favorites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    articleId: uuid('article_id')
      .notNull()
      .references(() => articles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.articleId] }), index('favorites_article_idx').on(t.articleId)],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    topicId: uuid('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('subscriptions_user_topic_uq').on(t.userId, t.topicId),
    index('subscriptions_topic_idx').on(t.topicId),
  ],
);

export const notificationSettings = pgTable('notification_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailEnabled: boolean('email_enabled').notNull().default(false),
  messengerChatId: text('messenger_chat_id'),
  messengerEnabled: boolean('messenger_enabled').notNull().default(false),
  locale: text('locale', { enum: ['en', 'zh-TW'] })
    .notNull()
    .default('en'),
  /** Reader API items carry our summary and zh-TW translation above the article (default on) */
  readerSummaryBlock: boolean('reader_summary_block').notNull().default(true),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One-time password reset links: only the SHA-256 of the token is stored, so a copy of the table
 * cannot reset anyone's password. A link is used at most once and expires.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    /** `email`: asked for on the sign-in page; `admin`: made by an admin on the Users page */
    origin: text('origin', { enum: ['email', 'admin'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);
