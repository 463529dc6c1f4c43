import { notFound } from '../../domain/errors.js';
import { listFilter } from './articles.service.js';
import type { ReadStateRepository } from './articles.ports.js';

/**
 * "Mark all as read" marks at most this many articles per call, newest first: one bounded
 * statement (~0.5 s on PostgreSQL); a larger backlog takes another call (docs/decisions.md).
 */
export const MARK_ALL_MAX = 50_000;

export interface MarkAllInput {
  topicId?: string;
  tag?: string;
  source?: string;
  q?: string;
  favoritesOnly?: boolean;
}

/** Read state of a signed-in user: mark/unmark, mark all of a list filter, unread counts. */
export class ReadStateService {
  constructor(private readonly reads: ReadStateRepository) {}

  async markRead(userId: string, articleId: string): Promise<void> {
    if (!(await this.reads.mark(userId, articleId))) throw notFound('article');
  }

  async markUnread(userId: string, articleId: string): Promise<void> {
    // unknown ids answer 404 like marking does; an unread article stays unread
    if (!(await this.reads.unmark(userId, articleId))) throw notFound('article');
  }

  async markAll(userId: string, input: MarkAllInput): Promise<{ marked: number }> {
    const filter = { ...listFilter(input, userId), unreadFor: userId };
    return { marked: await this.reads.markMatching(userId, filter, MARK_ALL_MAX) };
  }

  async unreadCounts(
    userId: string,
  ): Promise<{ items: { topic_id: string; unread: number }[]; total: number }> {
    const counts = await this.reads.unreadCounts(userId);
    return {
      items: counts.map((c) => ({ topic_id: c.topicId, unread: c.unread })),
      total: counts.reduce((sum, c) => sum + c.unread, 0),
    };
  }
}
