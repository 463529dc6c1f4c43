import { forbidden, invalid, notFound } from '../../domain/errors.js';
import type { ArticleSummary, SortOrder } from '../../domain/articles.js';
import type { Principal } from '../../domain/users.js';
import {
  STATE,
  TOP_LABEL,
  decimalItemId,
  feedId,
  labelId,
  longItemId,
  parseItemId,
  parseStream,
  type Stream,
} from '../../domain/greader.js';
import { listFilter, type ArticlesService, type ReaderArticle } from '../articles/articles.service.js';
import type { ArticleFilter, ArticleReadRepository, EnabledMetrics } from '../articles/articles.ports.js';
import type { FavoritesService } from '../articles/favorites.service.js';
import type { ReadStateService } from '../articles/read-state.service.js';
import type { CatalogService, SourceOut, TopicOut } from '../catalog/catalog.service.js';
import type { SourcesService } from '../catalog/sources.service.js';
import type { UserPreferencesService } from '../users/user-preferences.service.js';
import type { AuthService } from '../auth/auth.service.js';
import { normalizeEmail } from '../auth/auth.service.js';
import type { AccessTokensService } from '../tokens/tokens.service.js';

/** items per stream/contents answer (a larger `n` is cut to it; the continuation gives the rest) */
export const MAX_CONTENTS = 250;
/** item references per stream/items/ids answer */
export const MAX_IDS = 10_000;
/** items one stream/items/contents or edit-tag call names at most */
export const MAX_ITEMS_PER_CALL = 1_000;
/** the ★ Top stream: the best of this many days, this many at most */
export const TOP_DAYS = 30;
export const TOP_MAX = 100;
/** articles whose content is read and sanitised at once for one answer */
const DETAIL_CONCURRENCY = 8;

export interface StreamQuery {
  n?: number;
  c?: string;
  r?: string;
  ot?: number;
  nt?: number;
  xt?: string[];
  it?: string[];
}

export interface ReaderItem {
  id: string;
  crawlTimeMsec: string;
  timestampUsec: string;
  published: number;
  updated: number;
  title: string;
  canonical: { href: string }[];
  alternate: { href: string; type: string }[];
  categories: string[];
  origin: { streamId: string; title: string; htmlUrl: string };
  summary: { direction: 'ltr'; content: string };
  author?: string;
}

export interface ReaderStream {
  direction: 'ltr';
  id: string;
  title: string;
  updated: number;
  items: ReaderItem[];
  continuation?: string;
}

export interface ItemRef {
  id: string;
  directStreamIds: string[];
  timestampUsec: string;
}

interface Catalog {
  topics: TopicOut[];
  sources: SourceOut[];
}

type Target =
  { filter: ArticleFilter; title: string; top: false } | { filter: ArticleFilter; title: string; top: true };

/**
 * The Google Reader API over the articles, read state, favorites, topics and sources
 * (docs/decisions/0112-google-reader-api.md): topics are labels, sources are subscriptions, our
 * summary and zh-TW translation ride above each article. Every call is one user's.
 */
export class GoogleReaderService {
  constructor(
    private readonly deps: {
      articles: Pick<ArticlesService, 'get' | 'list'>;
      refs: Pick<ArticleReadRepository, 'refs' | 'resolveItemIds'>;
      readState: Pick<
        ReadStateService,
        'markRead' | 'markUnread' | 'markAll' | 'unreadCounts' | 'unreadBySource'
      >;
      favorites: Pick<FavoritesService, 'add' | 'remove'>;
      catalog: Pick<CatalogService, 'listTopics' | 'listSources'>;
      sources: Pick<SourcesService, 'create' | 'update' | 'preview'>;
      preferences: Pick<UserPreferencesService, 'readerSummaryBlock'>;
      metrics: EnabledMetrics;
      users: Pick<AuthService, 'me'>;
      tokens: Pick<AccessTokensService, 'authenticate'>;
      /** the site root, for origins' htmlUrl */
      baseUrl: string;
      now?: () => Date;
    },
  ) {}

  /**
   * ClientLogin: the password is a personal access token of the account with this e-mail. The
   * answer's Auth is that token (nothing new to revoke: revoking the token ends the login at once).
   */
  async login(email: string, passwd: string): Promise<string | null> {
    const principal = await this.deps.tokens.authenticate(passwd.trim());
    if (!principal) return null;
    const me = await this.deps.users.me(principal);
    return normalizeEmail(me.email) === normalizeEmail(email) ? passwd.trim() : null;
  }

  async userInfo(p: Principal) {
    const me = await this.deps.users.me(p);
    return {
      userId: me.id,
      userName: me.display_name ?? me.email,
      userProfileId: me.id,
      userEmail: me.email,
      isBloggerUser: false,
      signupTimeSec: 0,
      isMultiLoginEnabled: false,
    };
  }

  async tagList() {
    const { topics } = await this.catalogOf();
    return {
      tags: [
        { id: STATE.starred },
        { id: labelId(TOP_LABEL), type: 'folder' },
        ...topics.map((t) => ({ id: labelId(t.name), type: 'folder' })),
      ],
    };
  }

  async subscriptionList() {
    const { topics, sources } = await this.catalogOf();
    const names = new Map(topics.map((t) => [t.id, t.name]));
    return {
      // an unsubscribed (disabled) source is no subscription: its articles stay, the apps drop it
      subscriptions: sources
        .filter((s) => s.enabled && names.has(s.topic_id))
        .map((s) => ({
          id: feedId(s.url),
          title: s.name,
          categories: [{ id: labelId(names.get(s.topic_id)!), label: names.get(s.topic_id)! }],
          url: s.url,
          htmlUrl: s.url,
          iconUrl: '',
          firstitemmsec: '0',
          sortid: s.id.replace(/-/g, '').slice(0, 8).toUpperCase(),
        })),
    };
  }

  /**
   * unread articles per label (topic) with its newest unread crawl time, per subscription
   * (`feed/<url>`, the articles its feed stream lists) with its newest article's crawl time, as
   * FreshRSS and Miniflux give them, and of the reading list
   */
  async unreadCount(p: Principal) {
    const { topics, sources } = await this.catalogOf();
    const newest = async (filter: ArticleFilter) =>
      (await this.deps.refs.refs({ ...filter, unreadFor: p.userId }, 'desc', 1))[0]?.scrapedUsec ?? '0';
    // the web app's unread counts (one statement), and the newest unread crawl time of each
    const [{ items, total }, bySource] = await Promise.all([
      this.deps.readState.unreadCounts(p.userId),
      this.deps.readState.unreadBySource(p.userId),
    ]);
    const bySourceId = new Map(bySource.map((c) => [c.sourceId, c]));
    const active = new Set(topics.map((t) => t.id));
    // the subscriptions subscription/list gives (enabled, in an active topic), each counting the
    // articles its own feed stored (by source id: a renamed source keeps its articles)
    const perFeed = sources.flatMap((s) => {
      const c = s.enabled && active.has(s.topic_id) ? bySourceId.get(s.id) : undefined;
      return c ? [{ id: feedId(s.url), count: c.unread, newestItemTimestampUsec: c.newestUsec }] : [];
    });
    const byTopic = new Map(items.map((c) => [c.topic_id, c.unread]));
    const perTopic = await Promise.all(
      topics
        .filter((t) => byTopic.has(t.id))
        .map(async (t) => ({
          id: labelId(t.name),
          count: byTopic.get(t.id)!,
          newestItemTimestampUsec: await newest({ topicId: t.id }),
        })),
    );
    return {
      max: 50_000,
      unreadcounts: [
        ...perTopic,
        ...perFeed,
        {
          id: STATE.readingList,
          count: total,
          newestItemTimestampUsec: await newest({}),
        },
      ],
    };
  }

  async streamIds(
    p: Principal,
    stream: string,
    q: StreamQuery,
  ): Promise<{ itemRefs: ItemRef[]; continuation?: string }> {
    const target = await this.target(p, stream, q);
    const n = limitOf(q.n, 20, MAX_IDS);
    if (target.top) {
      const { items, continuation } = await this.topPage(p, target.filter, q, n);
      return {
        itemRefs: items.map((a) => ({
          id: decimalItemId(a.id),
          directStreamIds: [],
          timestampUsec: usecOf(a.scrapedAt),
        })),
        ...(continuation ? { continuation } : {}),
      };
    }
    const order = orderOf(q.r);
    const filter = { ...target.filter, ...this.cursor(q.c, order) };
    const refs = await this.deps.refs.refs(filter, order, n + 1);
    const page = refs.slice(0, n);
    return {
      itemRefs: page.map((r) => ({
        id: decimalItemId(r.id),
        directStreamIds: [],
        timestampUsec: r.scrapedUsec,
      })),
      ...(refs.length > n ? { continuation: page[page.length - 1]!.id } : {}),
    };
  }

  async streamContents(p: Principal, stream: string, q: StreamQuery): Promise<ReaderStream> {
    const target = await this.target(p, stream, q);
    const n = limitOf(q.n, 20, MAX_CONTENTS);
    let ids: string[];
    let continuation: string | undefined;
    if (target.top) {
      const page = await this.topPage(p, target.filter, q, n);
      ids = page.items.map((a) => a.id);
      continuation = page.continuation;
    } else {
      const order = orderOf(q.r);
      const refs = await this.deps.refs.refs({ ...target.filter, ...this.cursor(q.c, order) }, order, n + 1);
      ids = refs.slice(0, n).map((r) => r.id);
      if (refs.length > n) continuation = ids[ids.length - 1];
    }
    const items = await this.items(p, ids);
    return {
      direction: 'ltr',
      id: stream,
      title: target.title,
      updated: Math.floor((this.deps.now?.() ?? new Date()).getTime() / 1000),
      items,
      ...(continuation ? { continuation } : {}),
    };
  }

  /** stream/items/contents: the named items, in the order named (unknown ones left out) */
  async itemsContents(p: Principal, rawIds: string[]) {
    const ids = await this.resolve(rawIds);
    return {
      direction: 'ltr' as const,
      id: STATE.readingList,
      updated: Math.floor((this.deps.now?.() ?? new Date()).getTime() / 1000),
      items: await this.items(p, ids),
    };
  }

  /**
   * edit-tag: `read`, `kept-unread` and `starred` are the web app's read state and favorites.
   * Labels are topics, which an admin sets per source: a reader app cannot put an article in one.
   */
  async editTag(p: Principal, rawIds: string[], add: string[], remove: string[]): Promise<void> {
    const ops = [...add.map((t) => ({ t, on: true })), ...remove.map((t) => ({ t, on: false }))];
    for (const { t } of ops)
      if (!/^user\/[^/]+\/state\/com\.google\/[\w-]+$/.test(t))
        throw invalid(
          `only the read, kept-unread and starred states can be set here, not ${t}`,
          'bad_request',
        );
    const ids = await this.resolve(rawIds);
    for (const id of ids)
      for (const { t, on } of ops) {
        const state = t.slice(t.lastIndexOf('/') + 1);
        if (state === 'read')
          await (on
            ? this.deps.readState.markRead(p.userId, id)
            : this.deps.readState.markUnread(p.userId, id));
        else if (state === 'kept-unread' && on) await this.deps.readState.markUnread(p.userId, id);
        else if (state === 'starred')
          await (on ? this.deps.favorites.add(p.userId, id) : this.deps.favorites.remove(p.userId, id));
        // other states of Google's (broadcast, like, tracking-…) have nothing here to change
      }
  }

  /** mark-all-as-read: the stream's unread articles (up to `ts`, microseconds, when given) */
  async markAllRead(p: Principal, stream: string, tsUsec?: number): Promise<void> {
    const target = await this.target(p, stream, {});
    const until = tsUsec !== undefined ? new Date(Math.floor(tsUsec / 1000) + 1) : undefined;
    if (target.top) {
      const { items } = await this.topPage(p, { ...target.filter, until }, {}, TOP_MAX);
      for (const a of items) await this.deps.readState.markRead(p.userId, a.id);
      return;
    }
    const f = target.filter;
    await this.deps.readState.markAll(p.userId, {
      topicId: f.topicId,
      sourceId: f.sourceId,
      favoritesOnly: !!f.favoritesOf,
      until,
    });
  }

  /** subscription/edit (admins): subscribe adds a source, unsubscribe disables it, edit renames or moves it */
  async subscriptionEdit(
    p: Principal,
    input: { ac: string; s: string[]; t?: string; a?: string; r?: string },
  ): Promise<void> {
    this.admin(p);
    const { topics, sources } = await this.catalogOf(true);
    const topicOf = (label: string | undefined) => {
      if (!label) return undefined;
      const stream = parseStream(label);
      const topic = stream?.kind === 'label' ? topics.find((t) => t.name === stream.name) : undefined;
      if (!topic) throw invalid(`no topic is labelled ${label}`, 'bad_request');
      return topic;
    };
    if (!input.s.length) throw invalid('s (the feed/<url> stream) is required', 'bad_request');
    for (const s of input.s) {
      const stream = parseStream(s);
      if (stream?.kind !== 'feed') throw invalid(`not a feed stream: ${s}`, 'bad_request');
      const source = sources.find((x) => x.url === stream.url);
      if (input.ac === 'subscribe') {
        const topic = topicOf(input.a) ?? this.defaultTopic(topics);
        if (source) await this.deps.sources.update(source.id, { enabled: true, topic_id: topic.id });
        else
          await this.deps.sources.create({
            topic_id: topic.id,
            url: stream.url,
            kind: 'rss',
            name: input.t?.trim() || undefined,
            fetch_now: true,
          });
      } else if (input.ac === 'unsubscribe') {
        if (!source) throw notFound('subscription');
        // disabled, not deleted: its articles, read state and favorites stay
        await this.deps.sources.update(source.id, { enabled: false });
      } else if (input.ac === 'edit') {
        if (!source) throw notFound('subscription');
        const topic = topicOf(input.a);
        await this.deps.sources.update(source.id, {
          ...(input.t?.trim() ? { name: input.t.trim() } : {}),
          ...(topic ? { topic_id: topic.id } : {}),
        });
      } else throw invalid('ac must be subscribe, unsubscribe or edit', 'bad_request');
    }
  }

  /** subscription/quickadd (admins): the address (a feed or a page linking one) becomes a source */
  async quickadd(p: Principal, raw: string) {
    this.admin(p);
    // a stream id (`feed/<url>`) as some apps send it: FreshRSS strips the prefix too
    const url = raw.trim().replace(/^feed\//, '');
    if (!/^https?:\/\/\S+$/i.test(url)) throw invalid('quickadd must be an http(s) URL', 'bad_request');
    const preview = await this.deps.sources.preview(url);
    if (preview.status !== 'feed') return { query: url, numResults: 0 };
    const { topics, sources } = await this.catalogOf(true);
    if (!sources.some((s) => s.url === preview.url))
      await this.deps.sources.create({
        topic_id: this.defaultTopic(topics).id,
        url: preview.url,
        kind: 'rss',
        fetch_now: true,
      });
    return {
      query: url,
      numResults: 1,
      streamId: feedId(preview.url),
      streamName: preview.feed?.title ?? preview.url,
    };
  }

  // ---------------------------------------------------------------------------------------------

  private admin(p: Principal) {
    if (p.role !== 'admin')
      throw forbidden('subscriptions are the sources of the service: only an admin adds or changes them');
  }

  /** quickadd names no label: the first topic by name takes the source (an admin moves it with edit) */
  private defaultTopic(topics: TopicOut[]): TopicOut {
    const topic = [...topics].filter((t) => t.is_active).sort((a, b) => a.name.localeCompare(b.name))[0];
    if (!topic) throw invalid('there is no topic to put the subscription in', 'bad_request');
    return topic;
  }

  private async catalogOf(includeInactive = false): Promise<Catalog> {
    const [topics, sources] = await Promise.all([
      this.deps.catalog.listTopics({ includeInactive }),
      this.deps.catalog.listSources(),
    ]);
    return { topics, sources };
  }

  /** the stream and the xt/it/ot/nt of a query as a list filter */
  private async target(p: Principal, raw: string, q: StreamQuery): Promise<Target> {
    const stream = parseStream(raw);
    if (!stream) throw invalid(`not a stream this service knows: ${raw}`, 'bad_request');
    const filter: ArticleFilter = await this.streamFilter(p, stream);
    for (const x of q.xt ?? []) {
      const s = parseStream(x);
      if (s?.kind !== 'read')
        throw invalid(`only ${STATE.read} can be excluded (xt), not ${x}`, 'bad_request');
      filter.unreadFor = p.userId;
    }
    for (const i of q.it ?? []) {
      const s = parseStream(i);
      if (s?.kind !== 'starred')
        throw invalid(`only ${STATE.starred} can be required (it), not ${i}`, 'bad_request');
      filter.favoritesOf = p.userId;
    }
    if (q.ot !== undefined) filter.since = new Date(q.ot * 1000);
    if (q.nt !== undefined) filter.until = new Date(q.nt * 1000);
    const title =
      stream.kind === 'label'
        ? stream.name
        : stream.kind === 'top'
          ? TOP_LABEL
          : stream.kind === 'feed'
            ? stream.url
            : raw;
    return stream.kind === 'top' ? { filter, title, top: true } : { filter, title, top: false };
  }

  private async streamFilter(p: Principal, stream: Stream): Promise<ArticleFilter> {
    switch (stream.kind) {
      case 'reading-list':
      case 'top':
        return {};
      case 'starred':
        return listFilter({ favoritesOnly: true }, p.userId);
      case 'read':
        throw invalid(
          `a stream of read articles is not offered; ask for ${STATE.readingList} (xt=${STATE.read} for the unread ones)`,
          'bad_request',
        );
      case 'label': {
        const topic = (await this.deps.catalog.listTopics()).find((t) => t.name === stream.name);
        if (!topic) throw notFound(`label ${stream.name}`);
        return { topicId: topic.id };
      }
      case 'feed': {
        const source = (await this.deps.catalog.listSources()).find((s) => s.url === stream.url);
        if (!source) throw notFound(`subscription ${stream.url}`);
        return { sourceId: source.id };
      }
    }
  }

  /** a continuation we wrote: the last article's uuid (keyset paging, stable under marking read) */
  private cursor(c: string | undefined, order: SortOrder): Pick<ArticleFilter, 'after'> {
    if (c === undefined) return {};
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(c))
      throw invalid('c is not a continuation this service wrote', 'bad_request');
    return { after: { id: c.toLowerCase(), order } };
  }

  /** ★ Top: the best articles of the last TOP_DAYS days by the topic ranking (citations, else views) */
  private async topPage(p: Principal, filter: ArticleFilter, q: StreamQuery, n: number) {
    let offset = 0;
    if (q.c !== undefined) {
      if (!/^top-\d{1,4}$/.test(q.c))
        throw invalid('c is not a continuation this service wrote', 'bad_request');
      offset = Number(q.c.slice(4));
    }
    const limit = Math.min(n, TOP_MAX - offset, 100);
    if (limit <= 0) return { items: [] as ArticleSummary[], continuation: undefined };
    const keys = await this.deps.metrics.enabledKeys();
    const now = this.deps.now?.() ?? new Date();
    const since = new Date(Math.max(now.getTime() - TOP_DAYS * 86_400_000, filter.since?.getTime() ?? 0));
    const page = await this.deps.articles.list(
      {
        sort: keys.includes('citation_count') ? 'citation_count' : 'view_count',
        order: 'desc',
        since,
        // nt in the query, not on the ranked page: a page cut afterwards could come back empty with
        // a continuation, where feed apps stop
        until: filter.until,
        unreadOnly: !!filter.unreadFor,
        favoritesOnly: !!filter.favoritesOf,
        limit,
        offset,
      },
      p.userId,
    );
    const items = page.items;
    const next = offset + page.items.length;
    const more = page.items.length === limit && next < TOP_MAX && next < page.total;
    return { items, continuation: more ? `top-${next}` : undefined };
  }

  /** 64-bit ids in any form → uuids of existing articles, in the order given */
  private async resolve(rawIds: string[]): Promise<string[]> {
    if (rawIds.length > MAX_ITEMS_PER_CALL)
      throw invalid(`at most ${MAX_ITEMS_PER_CALL} items per call`, 'bad_request');
    const hexes = rawIds.map((raw) => {
      const hex = parseItemId(raw);
      if (!hex) throw invalid(`not an item id: ${raw.slice(0, 80)}`, 'bad_request');
      return hex;
    });
    const found = await this.deps.refs.resolveItemIds(hexes);
    return [...new Set(hexes.flatMap((h) => found.get(h) ?? []))];
  }

  private async items(p: Principal, ids: string[]): Promise<ReaderItem[]> {
    const [{ topics, sources }, block, top] = await Promise.all([
      this.catalogOf(true),
      this.deps.preferences.readerSummaryBlock(p.userId),
      ids.length ? this.topIds(p) : new Set<string>(),
    ]);
    const topicNames = new Map(topics.map((t) => [t.id, t.name]));
    const sourceByName = new Map(sources.map((s) => [s.name, s]));
    const details: (ReaderArticle | null)[] = new Array(ids.length).fill(null);
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const i = next++;
        // a Reader client fetching an item is not the reader opening it: no read mark here
        details[i] = await this.deps.articles
          .get(ids[i]!, p.userId, { markRead: false })
          .catch((err: unknown) => {
            if ((err as { kind?: string }).kind === 'NotFound') return null;
            throw err;
          });
      }
    };
    await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, ids.length) }, worker));
    return details.flatMap((a) => (a ? [this.item(a, topicNames, sourceByName, block, top)] : []));
  }

  /**
   * the articles the ★ Top label holds now: an item carries the label of every label stream that
   * lists it (FreshRSS's items carry their labels), so an app filing items by their categories
   * files these under ★ Top too
   */
  private async topIds(p: Principal): Promise<Set<string>> {
    const ids = new Set<string>();
    let c: string | undefined;
    do {
      const page = await this.topPage(p, {}, { c }, TOP_MAX);
      for (const a of page.items) ids.add(a.id);
      c = page.continuation;
    } while (c);
    return ids;
  }

  private item(
    a: ReaderArticle,
    topicNames: Map<string, string>,
    sourceByName: Map<string, SourceOut>,
    block: boolean,
    top: Set<string>,
  ): ReaderItem {
    const published = a.publishedAt ?? a.scrapedAt;
    const source = sourceByName.get(a.source);
    const categories: string[] = [STATE.readingList];
    const topic = topicNames.get(a.topicId);
    if (topic) categories.push(labelId(topic));
    if (top.has(a.id)) categories.push(labelId(TOP_LABEL));
    if (a.isRead) categories.push(STATE.read);
    if (a.isFavorited) categories.push(STATE.starred);
    const body =
      a.contentHtml ?? (a.content ? `<p>${escapeHtml(a.content).replace(/\n{2,}/g, '</p><p>')}</p>` : '');
    return {
      id: longItemId(a.id),
      crawlTimeMsec: String(a.scrapedAt.getTime()),
      timestampUsec: usecOf(a.scrapedAt),
      published: Math.floor(published.getTime() / 1000),
      updated: Math.floor(published.getTime() / 1000),
      title: a.title,
      canonical: [{ href: a.url }],
      alternate: [{ href: a.url, type: 'text/html' }],
      categories,
      origin: {
        streamId: source ? feedId(source.url) : feedId(`${this.deps.baseUrl}/`),
        title: a.source,
        htmlUrl: source?.url ?? this.deps.baseUrl,
      },
      summary: { direction: 'ltr', content: (block ? summaryBlock(a) : '') + body },
      ...(a.author ? { author: a.author } : {}),
    };
  }
}

/**
 * Our summary and the zh-TW translation, in a block marked `ais-summary` above the article (a reader
 * app shows it as the article's first lines; the class lets a stylesheet set it apart).
 */
export function summaryBlock(a: Pick<ReaderArticle, 'summary' | 'translations'>): string {
  const zh = a.translations['zh-TW'];
  const parts: string[] = [];
  if (a.summary) parts.push(`<p><strong>Summary</strong> ${escapeHtml(a.summary)}</p>`);
  if (zh?.summary || zh?.title)
    parts.push(
      `<p lang="zh-TW"><strong>摘要</strong> ${zh.title ? `<em>${escapeHtml(zh.title)}</em> ` : ''}${escapeHtml(zh.summary ?? '')}</p>`,
    );
  if (!parts.length) return '';
  return `<div class="ais-summary" data-ais="summary">${parts.join('')}</div><hr/>`;
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const usecOf = (d: Date) => `${d.getTime()}000`;

const orderOf = (r: string | undefined): SortOrder => (r === 'o' ? 'asc' : 'desc');

function limitOf(n: number | undefined, fallback: number, max: number): number {
  if (n === undefined) return fallback;
  if (!Number.isInteger(n) || n < 1) throw invalid('n must be a whole number from 1', 'bad_request');
  return Math.min(n, max);
}
