import type { EmbeddingProvider } from '../shared/embedding.js';
import {
  TopicWindows,
  entryOf,
  hasVector,
  embedMissing,
  similarity,
  windowOf,
  type TopicWindow,
  type WindowEntry,
} from '../articles/similar-window.js';
import type { AskFilter, AskSearch } from './ask.ports.js';

/** the recent articles of a topic (or of all) a question's vector is compared with */
export const ASK_WINDOW = 5000;
/** vectors a single question may compute for its window (the rest: later questions) */
const EMBED_PER_QUESTION = 256;
const EMBED_BATCH = 128;
/** a kept window is read again after this long (new articles) */
const WINDOW_MAX_AGE_MS = 60_000;
const WINDOW_CACHE_BYTES = 32 * 1024 * 1024;

type DatedEntry = WindowEntry & { at: number };

/**
 * The embedding half of retrieval: the question's vector against a bounded window of the most
 * recent articles (of the topic, or of the whole corpus), quantised and kept in memory like the
 * similar articles' windows. Cost per question: one embedding of the question, at most ASK_WINDOW
 * dot products, and at most EMBED_PER_QUESTION article vectors computed when the window lacks them.
 */
export class EmbeddingCandidates {
  private readonly windows = new TopicWindows(WINDOW_CACHE_BYTES);
  private readonly loading = new Map<string, Promise<TopicWindow>>();

  constructor(
    private readonly search: AskSearch,
    private readonly embedder: EmbeddingProvider,
    private readonly now: () => number = Date.now,
  ) {}

  /** article ids, most similar first, at most `limit`; none when the question cannot be embedded */
  async rank(question: string, filter: AskFilter, limit: number): Promise<string[]> {
    const [vector] = await this.embedder.embed([question]);
    if (!vector) return [];
    const self = entryOf({ id: '', text: question, vector });
    const window = await this.window(filter.topicId ?? null);
    const missing = window.entries.filter((e) => !hasVector(e)).slice(0, EMBED_PER_QUESTION);
    if (missing.length) {
      await this.fill(missing);
      this.windows.set(window.head, window);
    }
    const since = filter.since?.getTime() ?? -Infinity;
    const best: { id: string; score: number }[] = [];
    for (const e of window.entries as DatedEntry[]) {
      if (e.at < since || !hasVector(e)) continue;
      const score = similarity(self, e);
      if (score <= 0) continue;
      if (best.length === limit && score <= best[limit - 1]!.score) continue;
      best.push({ id: e.id, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > limit) best.pop();
    }
    return best.map((b) => b.id);
  }

  private window(topicId: string | null): Promise<TopicWindow> {
    const key = topicId ?? '*';
    const kept = this.windows.get(key);
    if (kept && this.now() - kept.loadedAt < WINDOW_MAX_AGE_MS) return Promise.resolve(kept);
    const running = this.loading.get(key);
    if (running) return running;
    const work = (async () => {
      try {
        const rows = await this.search.recent(topicId, ASK_WINDOW);
        const entries = rows.map((r): DatedEntry => Object.assign(entryOf(r), { at: r.at }));
        // the key rides on the window's head so that a fill can put it back under the same key
        const window = { ...windowOf(null, entries, this.now()), head: key };
        this.windows.set(key, window);
        return window;
      } finally {
        this.loading.delete(key);
      }
    })();
    this.loading.set(key, work);
    return work;
  }

  private fill(missing: WindowEntry[]): Promise<void> {
    return embedMissing(missing, this.embedder, (saved) => this.search.saveVectors(saved), EMBED_BATCH);
  }
}
