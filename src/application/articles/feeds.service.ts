import { notFound } from '../../domain/errors.js';
import type { ArticleSummary, SortOrder } from '../../domain/articles.js';
import type { ArticlesService } from './articles.service.js';
import type { AtomEntry, AtomWriter, ReportFeedSource, TopicLookup } from './articles.ports.js';

export const FEED_ENTRIES = 50;
export const REPORT_FEED_ENTRIES = 20;

/** Feeds out: a topic's ranked list and its weekly reports as Atom documents (public). */
export class FeedsService {
  constructor(
    private readonly articles: Pick<ArticlesService, 'list'>,
    private readonly topics: TopicLookup,
    private readonly reports: ReportFeedSource,
    private readonly writer: AtomWriter,
    /** the site root: entries and alternates link to the pages, `self` to the feed's public path */
    private readonly baseUrl: string,
  ) {}

  async topicFeed(topicId: string, q: { sort?: string; order?: SortOrder }): Promise<string> {
    const topic = await this.topicOf(topicId);
    // the same list as the page: same sort keys, same refusals (422 for an unknown sort)
    const page = await this.articles.list(
      { topicId, sort: q.sort, order: q.order, limit: FEED_ENTRIES, offset: 0 },
      null,
    );
    const params = new URLSearchParams({
      ...(q.sort ? { sort: q.sort } : {}),
      ...(q.order ? { order: q.order } : {}),
    });
    const query = params.size ? `?${params}` : '';
    const entries = page.items.map((a) => this.articleEntry(a));
    return this.writer.write({
      id: `${this.baseUrl}/feeds/topics/${topicId}.atom${query}`,
      title: topic.name,
      subtitle: topic.description ?? undefined,
      updated: latest(entries),
      selfUrl: `${this.baseUrl}/feeds/topics/${topicId}.atom${query}`,
      pageUrl: `${this.baseUrl}/articles?${new URLSearchParams({ topic: topicId, ...Object.fromEntries(params) })}`,
      entries,
    });
  }

  async reportsFeed(topicId: string): Promise<string> {
    const topic = await this.topicOf(topicId);
    const { items } = await this.reports.list({ topicId, limit: REPORT_FEED_ENTRIES, offset: 0 });
    const entries: AtomEntry[] = items.map((r) => ({
      id: `urn:uuid:${r.id}`,
      title: r.title,
      url: `${this.baseUrl}/reports?${new URLSearchParams({ topic: topicId, week: r.week_start_date })}`,
      updated: new Date(r.created_at),
      published: new Date(r.created_at),
      summary: r.summary_text,
      authors: [],
      categories: [],
    }));
    return this.writer.write({
      id: `${this.baseUrl}/feeds/reports/${topicId}.atom`,
      title: `${topic.name}: weekly reports`,
      updated: latest(entries),
      selfUrl: `${this.baseUrl}/feeds/reports/${topicId}.atom`,
      pageUrl: `${this.baseUrl}/reports?${new URLSearchParams({ topic: topicId })}`,
      entries,
    });
  }

  /** an inactive topic is withdrawn from readers: its feeds are gone like its pages */
  private async topicOf(id: string) {
    const topic = await this.topics.topic(id);
    if (!topic || !topic.isActive) throw notFound('topic', 'topic_not_found');
    return topic;
  }

  private articleEntry(a: ArticleSummary): AtomEntry {
    return {
      id: `urn:uuid:${a.id}`,
      title: a.title,
      url: a.url,
      // a feed reader orders and dedups by these: the scrape date stands in for an unknown one
      updated: a.publishedAt ?? a.scrapedAt,
      published: a.publishedAt ?? undefined,
      summary: a.summary ?? undefined,
      authors: [a.source],
      categories: a.tags,
    };
  }
}

/** a feed's `updated`: its newest entry, or the epoch for an empty feed (stable, so caches agree) */
function latest(entries: AtomEntry[]): Date {
  let t = 0;
  for (const e of entries) t = Math.max(t, e.updated.getTime());
  return new Date(t);
}
