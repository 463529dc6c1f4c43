import { notFound } from '../../domain/errors.js';
import type { ArticleSummary } from '../../domain/articles.js';
import type { EmbeddingProvider } from '../shared/embedding.js';
import type { ArticleEmbeddingStore, ArticleReadRepository, TopicHead } from './articles.ports.js';
import {
  LruMap,
  TopicWindows,
  entryOf,
  headKey,
  hasVector,
  embedMissing,
  similarity,
  windowOf,
  type TopicWindow,
  type WindowEntry,
} from './similar-window.js';

/**
 * Similar articles are looked for among the topic's most recently scraped articles only: cosine
 * similarity is computed in code over at most this many stored vectors, so the answer's cost is
 * bounded whatever the topic's size (docs/decisions/0039-reader-view-similar-feeds-out.md).
 */
export const SIMILAR_WINDOW = 5000;
export const SIMILAR_COUNT = 5;
/** texts embedded per provider call when a window's vectors are computed for the first time */
const EMBED_BATCH = 256;
/** memory for the topics' windows kept between calls */
export const WINDOW_CACHE_BYTES = 64 * 1024 * 1024;
/** a kept window is read again after this long (vectors another process computed, deletions) */
export const WINDOW_MAX_AGE_MS = 10 * 60_000;
/** answers kept, per article and topic state */
const ANSWERS_MAX = 20_000;

export interface SimilarOptions {
  /**
   * Whether a guest's call may compute missing vectors. True only for an in-process embedder:
   * with an embedding endpoint, anonymous traffic never causes a provider call.
   */
  guestsMayEmbed: boolean;
  now?: () => number;
  windowCacheBytes?: number;
}

/**
 * GET /articles/{id}/similar: the nearest articles of the same topic by embedding cosine.
 *
 * The topic's window of vectors is kept in memory and brought up to date with the articles
 * scraped since (one index probe for the topic's newest article per call, an index range for the
 * new ones); answers are kept per article and topic state, so a new article in the topic makes
 * every answer of that topic be computed anew (docs/decisions/0058-similar-articles-kept.md).
 */
export class SimilarArticlesService {
  private readonly windows: TopicWindows;
  private readonly loading = new Map<string, Promise<TopicWindow>>();
  private readonly answers = new LruMap<string[]>(ANSWERS_MAX);
  private readonly now: () => number;

  constructor(
    private readonly store: ArticleEmbeddingStore,
    private readonly articles: ArticleReadRepository,
    private readonly embedder: EmbeddingProvider,
    private readonly opts: SimilarOptions,
  ) {
    this.windows = new TopicWindows(opts.windowCacheBytes ?? WINDOW_CACHE_BYTES);
    this.now = opts.now ?? Date.now;
  }

  async similar(articleId: string, viewerId: string | null): Promise<{ items: ArticleSummary[] }> {
    // one statement for the article's topic and that topic's state; the article's own vector is
    // read only when it is not in the kept window (older than the window's 5,000)
    const found = await this.store.locate(articleId);
    if (!found) throw notFound('article');
    const { topicId, head } = found;
    const key = `${articleId}@${headKey(head)}`;
    let ids = this.answers.get(key);
    if (!ids) {
      const window = await this.window(topicId, head);
      let self = window.byId.get(articleId);
      if (!self) {
        // the article itself may be older than the window: it is compared all the same
        const own = await this.store.one(articleId);
        if (!own) throw notFound('article');
        self = entryOf(own.article);
      }
      const missing = [self, ...window.entries.filter((e) => e !== self)].filter((e) => !hasVector(e));
      const mayEmbed = viewerId !== null || this.opts.guestsMayEmbed;
      if (missing.length && mayEmbed) {
        await this.fill(missing);
        this.windows.set(topicId, window);
      }
      ids = this.rank(self, window);
      // an answer over vectors a guest could not fill is not kept: a reader's call completes it
      if (mayEmbed || !missing.length) this.answers.set(key, ids);
    }
    return { items: await this.articles.byIds(ids, viewerId) };
  }

  private rank(self: WindowEntry, window: TopicWindow): string[] {
    if (!hasVector(self)) return [];
    const best: { id: string; score: number }[] = [];
    for (const e of window.entries) {
      if (e.id === self.id || !hasVector(e)) continue;
      const score = similarity(self, e);
      if (score <= 0) continue;
      if (best.length === SIMILAR_COUNT && score < best[SIMILAR_COUNT - 1]!.score) continue;
      best.push({ id: e.id, score });
      best.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
      if (best.length > SIMILAR_COUNT) best.pop();
    }
    return best.map((b) => b.id);
  }

  /** the topic's window as of `head`: kept, brought up to date, or read (once for concurrent calls) */
  private window(topicId: string, head: TopicHead | null): Promise<TopicWindow> {
    const kept = this.windows.get(topicId);
    const fresh = kept && this.now() - kept.loadedAt < WINDOW_MAX_AGE_MS;
    if (kept && fresh && kept.head === headKey(head)) return Promise.resolve(kept);
    const running = this.loading.get(topicId);
    if (running) return running;
    const work = (async () => {
      try {
        const window = fresh ? await this.update(topicId, kept, head) : await this.read(topicId, head);
        this.windows.set(topicId, window);
        return window;
      } finally {
        this.loading.delete(topicId);
      }
    })();
    this.loading.set(topicId, work);
    return work;
  }

  private async read(topicId: string, head: TopicHead | null): Promise<TopicWindow> {
    const rows = await this.store.recent(topicId, SIMILAR_WINDOW);
    return windowOf(head, rows.map(entryOf), this.now());
  }

  /** the articles scraped since the window was read, in front; the oldest beyond the window out */
  private async update(topicId: string, kept: TopicWindow, head: TopicHead | null): Promise<TopicWindow> {
    const since = kept.since;
    if (!since) return this.read(topicId, head);
    const newer = await this.store.recent(topicId, SIMILAR_WINDOW, since);
    if (newer.length >= SIMILAR_WINDOW) return this.read(topicId, head);
    const added = newer.filter((a) => !kept.byId.has(a.id)).map(entryOf);
    const entries = [...added, ...kept.entries].slice(0, SIMILAR_WINDOW);
    return windowOf(head, entries, kept.loadedAt);
  }

  /** embeds and stores the vectors the window lacks */
  private fill(missing: WindowEntry[]): Promise<void> {
    return embedMissing(missing, this.embedder, (saved) => this.store.save(saved), EMBED_BATCH);
  }
}
