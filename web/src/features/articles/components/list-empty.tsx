import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useI18n } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { hasFilters, type ListState } from '../model/list-state';

/** An empty list says why and what to do next: clear a filter, or (no articles at all) add a source. */
export function ListEmpty({ state, onClear }: { state: ListState; onClear(): void }) {
  const { t } = useI18n();
  if (hasFilters(state)) {
    const text = state.q
      ? t('articles.emptySearch', { q: state.q })
      : state.unreadOnly
        ? t('articles.emptyUnread')
        : state.favoritesOnly
          ? `${t('articles.emptyFavorites')} ${t('articles.emptyFavoritesHint')}`
          : t('articles.emptyFiltered');
    return (
      <div className="state state-empty" data-testid="empty-state" data-empty="filtered">
        <p>{text}</p>
        <button type="button" onClick={onClear}>
          {t('articles.clearFilters')}
        </button>
      </div>
    );
  }
  return <NoArticlesYet />;
}

/** No article at all: admins are told whether a source exists and led to the page that fixes it. */
function NoArticlesYet() {
  const { t } = useI18n();
  const { isAdmin } = useSession();
  const sources = useQuery({
    queryKey: ['admin', 'sources', 'count'],
    enabled: isAdmin,
    queryFn: ({ signal }) => api<unknown[]>('/admin/sources', { signal }),
  });
  const none = !sources.data || sources.data.length === 0;
  return (
    <div className="state state-empty" data-testid="empty-state" data-empty="no-articles">
      <p>
        <strong>{t('articles.emptyNone')}</strong>{' '}
        {isAdmin
          ? none
            ? t('articles.emptyNoSources')
            : t('articles.emptyHasSources')
          : t('articles.emptyGuest')}
      </p>
      {isAdmin && (
        <p className="state-actions">
          {none ? (
            <Link className="button-link" to="/admin/catalog" data-testid="add-source">
              {t('articles.addSource')}
            </Link>
          ) : (
            <Link className="button-link" to="/admin/jobs">
              {t('articles.runScrape')}
            </Link>
          )}
        </p>
      )}
    </div>
  );
}
