import type { ArticleListQuery, MarkReadFilter } from '../../../lib/api-types';

/**
 * Everything about the list lives in the URL (`/articles?topic=&sort=&order=&page=&q=&tag=&source=
 * &favorites=1&unread=1&versions=all`), so a link, a reload, the back button and the reader view's `from`
 * parameter all restore the same list. This module is the one reading and writing that state.
 */
export const PAGE_SIZE = 20;
export const DEFAULT_SORT = 'scraped_at';
export const RELEVANCE = 'relevance';
/** the sorts every list has besides the enabled catalog metrics */
export const BUILTIN_KEYS = ['scraped_at', 'published_at', 'source', 'title', 'view_count'];

export interface ListState {
  topicId?: string;
  /** `relevance` only with a search (the api's default then) */
  sort: string;
  order: 'asc' | 'desc';
  page: number;
  q?: string;
  tag?: string;
  source?: string;
  favoritesOnly: boolean;
  unreadOnly: boolean;
  /**
   * every version of a work as its own card (`versions=all`); by default one card per work, its best
   * version, whose "N versions" opens the others (docs/decisions/0125-works.md)
   */
  allVersions: boolean;
}

export function readListState(
  params: URLSearchParams,
  opts: { signedIn: boolean; isKnownSort?: (sort: string) => boolean },
): ListState {
  const q = params.get('q')?.trim() || undefined;
  const requested = params.get('sort') ?? (q ? RELEVANCE : DEFAULT_SORT);
  let sort = requested;
  if (sort === RELEVANCE && !q) sort = DEFAULT_SORT;
  // a metric disabled since the link was made falls back to the default instead of failing
  else if (sort !== RELEVANCE && opts.isKnownSort && !opts.isKnownSort(sort))
    sort = q ? RELEVANCE : DEFAULT_SORT;
  return {
    topicId: params.get('topic') || undefined,
    sort,
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    page: Math.max(1, Math.floor(Number(params.get('page') ?? '1')) || 1),
    q,
    tag: params.get('tag') || undefined,
    source: params.get('source') || undefined,
    favoritesOnly: opts.signedIn && params.get('favorites') === '1',
    unreadOnly: opts.signedIn && params.get('unread') === '1',
    allVersions: params.get('versions') === 'all',
  };
}

/** The api query of a list state; `sort` is left out when it is the api's own default. */
export function toApiQuery(s: ListState, page = s.page): ArticleListQuery {
  return {
    topic_id: s.topicId,
    sort: s.sort === RELEVANCE || (s.sort === DEFAULT_SORT && !s.q) ? undefined : s.sort,
    order: s.order,
    favorites_only: s.favoritesOnly || undefined,
    unread_only: s.unreadOnly || undefined,
    q: s.q,
    tag: s.tag,
    source: s.source,
    collapse: s.allVersions ? undefined : 'work',
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
}

/** The filter of "mark all as read": the list's filters without sort, order, page or unread. */
export function toReadFilter(s: ListState): MarkReadFilter {
  const f: MarkReadFilter = {};
  if (s.topicId) f.topic_id = s.topicId;
  if (s.tag) f.tag = s.tag;
  if (s.source) f.source = s.source;
  if (s.q) f.q = s.q;
  if (s.favoritesOnly) f.favorites_only = true;
  return f;
}

/** `params` with `changes` applied (null or '' removes a key); the page resets unless kept. */
export function withChanges(
  params: URLSearchParams,
  changes: Record<string, string | null>,
  keepPage = false,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
  }
  if (!keepPage) next.delete('page');
  return next;
}

export const hasFilters = (s: ListState) =>
  !!(s.topicId || s.q || s.tag || s.source || s.favoritesOnly || s.unreadOnly);

/** The reader view's address for an article opened from the list with these parameters. */
export function readerHref(id: string, listParams: URLSearchParams | string): string {
  const from = listParams.toString();
  return `/articles/${encodeURIComponent(id)}${from ? `?from=${encodeURIComponent(from)}` : ''}`;
}

/** The list address a reader view returns to (`from` is the list's own query string). */
export function listHref(from: string | null): string {
  return from ? `/articles?${from}` : '/articles';
}
