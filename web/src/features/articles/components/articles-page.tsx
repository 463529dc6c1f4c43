import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Rss } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { useTopics } from '../../../lib/topics';
import { ErrorState, Loading } from '../../../lib/ui';
import { useArticles } from '../api/articles';
import { useToggleFavorite } from '../api/favorites';
import { useSetRead } from '../api/read-state';
import { useMetricDefinitions } from '../api/metric-definitions';
import {
  BUILTIN_KEYS,
  DEFAULT_SORT,
  PAGE_SIZE,
  readListState,
  readerHref,
  toApiQuery,
  toReadFilter,
  withChanges,
} from '../model/list-state';
import { useListKeys } from '../model/use-list-keys';
import { ArticleCard } from './article-card';
import { ListEmpty } from './list-empty';
import { ListFilters } from './list-filters';
import { MarkAllRead } from './mark-all-read';
import { SignInHint } from './sign-in-hint';
import { MetricCoverageNote } from './metric-coverage-note';
import { Pagination } from './pagination';
import { AskBox } from '../../ask/components/ask-box';

/** The list: every piece of its state is in the URL (shareable, reload- and back-button safe). */
export function ArticlesPage() {
  const { t } = useI18n();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const definitions = useMetricDefinitions();
  const topics = useTopics();
  const favorite = useToggleFavorite();
  const setRead = useSetRead();
  const [guestHint, setGuestHint] = useState(0);
  const searchRef = useRef<HTMLInputElement>(null);

  const enabled = definitions.data ?? [];
  const state = readListState(params, {
    signedIn: !!user,
    isKnownSort: definitions.isSuccess
      ? (s) => BUILTIN_KEYS.includes(s) || enabled.some((m) => m.metric_key === s)
      : undefined,
  });
  const update = (changes: Record<string, string | null>, keepPage = false) =>
    setParams(withChanges(params, changes, keepPage));

  const articles = useArticles(toApiQuery(state));
  const items = articles.data?.items ?? [];
  const pages = articles.data ? Math.max(1, Math.ceil(articles.data.total / PAGE_SIZE)) : 1;
  const hrefOf = (id: string) => readerHref(id, params);

  const selected = useListKeys({
    items,
    hrefOf: (a) => hrefOf(a.id),
    signedIn: !!user,
    resetKey: `${params.toString()}|${items[0]?.id ?? ''}`,
    onFavorite: (a) => favorite.mutate({ id: a.id, favorite: !a.is_favorited }),
    onRead: (a) => setRead.mutate({ id: a.id, read: a.is_read !== true }),
    onGuest: () => setGuestHint((n) => n + 1),
    onPageEdge: (d) => {
      const target = state.page + d;
      if (target < 1 || target > pages) return false;
      update({ page: target === 1 ? null : String(target) }, true);
      return true;
    },
  });

  // "/" pressed on another page lands here with the search focused
  const nav = location.state as { focusSearch?: boolean; returnTo?: string } | null;
  useEffect(() => {
    if (nav?.focusSearch) searchRef.current?.focus();
  }, [nav]);
  // back from the reader view (u, Esc, the back link): the card of that article has the focus again
  const returnedTo = nav?.returnTo && items.some((a) => a.id === nav.returnTo) ? nav.returnTo : null;
  useEffect(() => {
    if (!returnedTo) return;
    const card = document.querySelector(`article[data-article-id="${CSS.escape(returnedTo)}"]`);
    const link = card?.querySelector<HTMLAnchorElement>('[data-testid="article-link"]');
    link?.focus();
    card?.scrollIntoView({ block: 'center' });
  }, [returnedTo]);

  const topic = topics.data?.find((x) => x.id === state.topicId);
  const feedSort = state.sort === 'relevance' ? DEFAULT_SORT : state.sort;
  const feedHref = topic
    ? `/feeds/topics/${encodeURIComponent(topic.id)}.atom?sort=${encodeURIComponent(feedSort)}&order=${state.order}`
    : undefined;

  return (
    <section className="articles-page">
      {feedHref && topic && (
        <link
          rel="alternate"
          type="application/atom+xml"
          title={t('articles.feedTitle', { topic: topic.name })}
          href={feedHref}
        />
      )}
      <div className="page-head">
        <h1>{t('articles.title')}</h1>
        {feedHref && (
          <a className="feed-link" href={feedHref} data-testid="topic-feed">
            <Rss size={16} aria-hidden="true" /> {t('articles.feed')}
          </a>
        )}
      </div>
      <form
        role="search"
        className="search"
        onSubmit={(e) => {
          e.preventDefault();
          const q = String(new FormData(e.currentTarget).get('q') ?? '').trim();
          // without a chosen sort a search ranks by relevance (the api's default with q)
          update({ q: q || null });
        }}
      >
        <label>
          <span className="field-label">{t('articles.search')}</span>
          <input
            ref={searchRef}
            id="article-search"
            type="search"
            name="q"
            defaultValue={state.q}
            key={state.q ?? ''}
            placeholder={t('articles.searchHint')}
            data-testid="search"
          />
        </label>
      </form>
      <AskBox
        key={state.topicId ?? ''}
        topic={topic ?? (state.topicId ? { id: state.topicId, name: '' } : undefined)}
      />
      <ListFilters state={state} signedIn={!!user} metrics={enabled} update={update} />
      {!user && guestHint > 0 && <SignInHint key={guestHint} />}
      <MetricCoverageNote sort={state.sort} topicId={state.topicId} definitions={enabled} />

      {articles.isLoading ? (
        <Loading />
      ) : articles.isError ? (
        <ErrorState error={articles.error} onRetry={() => void articles.refetch()} />
      ) : items.length === 0 ? (
        <ListEmpty state={state} onClear={() => setParams(new URLSearchParams())} />
      ) : (
        <>
          <div className="list-head">
            <p className="count" aria-live="polite">
              {t('articles.total', { count: articles.data?.total ?? 0 })}
            </p>
            {user && <MarkAllRead filter={toReadFilter(state)} />}
          </div>
          <div className="article-list" data-testid="article-list" aria-busy={articles.isFetching}>
            {items.map((a, i) => (
              <ArticleCard
                key={a.id}
                article={a}
                href={hrefOf(a.id)}
                hrefOf={hrefOf}
                definitions={enabled}
                signedIn={!!user}
                selected={i === selected}
                busy={favorite.isPending && favorite.variables?.id === a.id}
                onFavorite={(fav) => favorite.mutate({ id: a.id, favorite: fav })}
                onRead={(read) => setRead.mutate({ id: a.id, read })}
              />
            ))}
          </div>
          <Pagination
            page={state.page}
            pages={pages}
            onPage={(p) => update({ page: p === 1 ? null : String(p) }, true)}
          />
        </>
      )}
    </section>
  );
}
