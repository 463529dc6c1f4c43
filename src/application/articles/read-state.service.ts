import { invalid, notFound } from '../../domain/errors.js';
import { listFilter } from './articles.service.js';
import type { ReadStateRepository } from './articles.ports.js';

/**
 * "Mark all as read" marks at most this many articles per call, newest first: one bounded
 * statement (~0.5 s on PostgreSQL); a larger backlog takes another call (docs/decisions/0038-read-state.md).
 */
export const MARK_ALL_MAX = 50_000;
/** a batch's read_at in UTC to the microsecond, as the repository names it */
const UNDO_TOKEN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export interface MarkAllInput {
  topicId?: string;
  tag?: string;
  source?: string;
  /** the Reader API's feed streams: by source id */
  sourceId?: string;
  q?: string;
  favoritesOnly?: boolean;
  /** only articles published (or, without a date, scraped) before this instant */
  until?: Date;
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

  /**
   * Marks the list's unread articles read, or (dryRun) only counts them so the reader can confirm
   * the number first. The answer's undo token takes exactly this batch back (`undoMarkAll`).
   */
  async markAll(
    userId: string,
    input: MarkAllInput,
    dryRun = false,
  ): Promise<{ marked: number; undo_token: string | null }> {
    const filter = { ...listFilter(input, userId), unreadFor: userId };
    if (dryRun)
      return { marked: await this.reads.countMatching(userId, filter, MARK_ALL_MAX), undo_token: null };
    const { marked, batch } = await this.reads.markMatching(userId, filter, MARK_ALL_MAX);
    return { marked, undo_token: batch };
  }

  /** Undo of one "mark all as read": its articles are unread again (those opened since included). */
  async undoMarkAll(userId: string, token: string): Promise<{ unmarked: number }> {
    if (!UNDO_TOKEN.test(token))
      throw invalid('the undo token is not one this service issued', 'invalid_undo_token');
    return { unmarked: await this.reads.unmarkBatch(userId, token) };
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

  /** unread articles per source (sources with at least one), and each source's newest crawl time */
  async unreadBySource(userId: string): Promise<{ sourceId: string; unread: number; newestUsec: string }[]> {
    return this.reads.unreadBySource(userId);
  }
}
