import type { Article } from '../api/articles';
import { useArticles } from '../api/articles';
import { PAGE_SIZE, readListState, readerHref, toApiQuery, withChanges } from './list-state';

export interface Neighbor {
  article: Article;
  href: string;
}

/**
 * Previous and next article within the list the reader came from (`from`, that list's query string):
 * the same query as the list (so usually already cached), and the page before or after when the
 * article sits at an edge of its page. Following a neighbor on another page moves `from` along, so
 * the back link returns to the page that holds the article. `loading` says which neighbor may still
 * come (its page is being read): a key pressed for it meanwhile is kept, not dropped.
 */
export function useNeighbors(id: string, from: string | null, signedIn: boolean) {
  const params = new URLSearchParams(from ?? '');
  const state = readListState(params, { signedIn });
  const page = useArticles(toApiQuery(state), from !== null);
  const items = page.data?.items ?? [];
  const index = items.findIndex((a) => a.id === id);
  const total = page.data?.total ?? 0;
  const atStart = index === 0 && state.page > 1;
  const atEnd = index >= 0 && index === items.length - 1 && state.page * PAGE_SIZE < total;
  const before = useArticles(toApiQuery(state, state.page - 1), from !== null && atStart);
  const after = useArticles(toApiQuery(state, state.page + 1), from !== null && atEnd);

  const onPage = (p: number) => withChanges(params, { page: p === 1 ? null : String(p) }, true).toString();
  const neighbor = (article: Article | undefined, p: number): Neighbor | undefined =>
    article && { article, href: readerHref(article.id, p === state.page ? params.toString() : onPage(p)) };

  const listLoading = from !== null && page.isPending;
  const loading = {
    previous: listLoading || (atStart && before.isPending),
    next: listLoading || (atEnd && after.isPending),
  };
  if (from === null || index < 0)
    return { previous: undefined, next: undefined, position: undefined, loading };
  return {
    loading,
    previous:
      index > 0
        ? neighbor(items[index - 1], state.page)
        : neighbor(before.data?.items.at(-1), state.page - 1),
    next:
      index < items.length - 1
        ? neighbor(items[index + 1], state.page)
        : neighbor(after.data?.items[0], state.page + 1),
    position: { index: (state.page - 1) * PAGE_SIZE + index + 1, total },
  };
}
