import { useSearchParams } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { TopicSelect } from '../../../lib/topic-select';
import { Empty, ErrorState, Loading } from '../../../lib/ui';
import { useArticles } from '../api/articles';
import { useToggleFavorite } from '../api/favorites';
import { useMetricDefinitions } from '../api/metric-definitions';
import { ArticleCard } from './article-card';
import { Pagination } from './pagination';
import { BUILTIN_SORTS, SortMenu } from './sort-menu';

const PAGE_SIZE = 20;

/** The list keeps topic, sort, order, page and the favorites filter in the URL (shareable, back-button safe). */
export function ArticlesPage() {
  const { t } = useI18n();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const definitions = useMetricDefinitions();
  const favorite = useToggleFavorite();

  const enabled = definitions.data ?? [];
  const requestedSort = params.get('sort') ?? 'scraped_at';
  const known =
    BUILTIN_SORTS.some((s) => s.key === requestedSort) || enabled.some((m) => m.metric_key === requestedSort);
  // a metric disabled since the link was made falls back to the default instead of failing
  const sort = known || !definitions.isSuccess ? requestedSort : 'scraped_at';
  const order = params.get('order') === 'asc' ? 'asc' : 'desc';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const topicId = params.get('topic') ?? undefined;
  const favoritesOnly = !!user && params.get('favorites') === '1';
  const q = params.get('q') ?? undefined;
  const tag = params.get('tag') ?? undefined;

  const update = (changes: Record<string, string | null>, resetPage = true) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (resetPage) next.delete('page');
    setParams(next);
  };

  const articles = useArticles({
    topic_id: topicId,
    sort,
    order,
    favorites_only: favoritesOnly,
    q,
    tag,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const pages = articles.data ? Math.max(1, Math.ceil(articles.data.total / PAGE_SIZE)) : 1;

  return (
    <section className="articles-page">
      <h1>{t('articles.title')}</h1>
      <div className="toolbar" role="group" aria-label={t('articles.sort')}>
        <TopicSelect
          label={t('articles.topic')}
          allLabel={t('articles.allTopics')}
          value={topicId ?? ''}
          onChange={(e) => update({ topic: e.target.value || null })}
          testId="topic-select"
        />
        <SortMenu
          value={sort}
          order={order}
          metrics={enabled}
          onChange={(s) => update({ sort: s === 'scraped_at' ? null : s })}
          onToggleOrder={() => update({ order: order === 'asc' ? null : 'asc' })}
        />
        <form
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            update({ q: String(new FormData(e.currentTarget).get('q') ?? '').trim() || null });
          }}
        >
          <label>
            <span className="field-label">{t('articles.search')}</span>
            <input type="search" name="q" defaultValue={q} />
          </label>
        </form>
        {tag && (
          <button
            type="button"
            onClick={() => update({ tag: null })}
            aria-label={`${t('articles.tags')}: ${tag} ×`}
          >
            #{tag} ×
          </button>
        )}
        {user && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={favoritesOnly}
              onChange={(e) => update({ favorites: e.target.checked ? '1' : null })}
              data-testid="favorites-only"
            />
            {t('articles.favoritesOnly')}
          </label>
        )}
      </div>

      {articles.isLoading ? (
        <Loading />
      ) : articles.isError ? (
        <ErrorState error={articles.error} onRetry={() => void articles.refetch()} />
      ) : articles.data && articles.data.items.length === 0 ? (
        <Empty>{favoritesOnly ? t('articles.emptyFavorites') : t('articles.empty')}</Empty>
      ) : (
        <>
          <p className="count" aria-live="polite">
            {t('articles.total', { count: articles.data?.total ?? 0 })}
          </p>
          <div className="article-list" data-testid="article-list" aria-busy={articles.isFetching}>
            {articles.data?.items.map((a) => (
              <ArticleCard
                key={a.id}
                article={a}
                definitions={enabled}
                signedIn={!!user}
                busy={favorite.isPending && favorite.variables?.id === a.id}
                onFavorite={(fav) => favorite.mutate({ id: a.id, favorite: fav })}
              />
            ))}
          </div>
          <Pagination
            page={page}
            pages={pages}
            onPage={(p) => update({ page: p === 1 ? null : String(p) }, false)}
          />
        </>
      )}
    </section>
  );
}
