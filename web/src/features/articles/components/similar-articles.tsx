import { Link } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { useSimilarArticles } from '../api/articles';
import { ArticleDate } from './article-date';

/** Up to five nearest articles of the same topic (the api bounds the search to a recent window). */
export function SimilarArticles({ id }: { id: string }) {
  const { t } = useI18n();
  const similar = useSimilarArticles(id, true);
  // an api without the endpoint (or a failing one) leaves the section out rather than the page
  if (similar.isError || similar.isLoading) return null;
  const items = similar.data?.items ?? [];
  return (
    <section aria-labelledby="similar-title" className="similar" data-testid="similar">
      <h2 id="similar-title">{t('articles.similar')}</h2>
      {items.length === 0 ? (
        <p className="state state-empty">{t('articles.noSimilar')}</p>
      ) : (
        <ul>
          {items.map((a) => (
            <li key={a.id}>
              <Link to={`/articles/${encodeURIComponent(a.id)}`}>{a.title}</Link>{' '}
              <span className="meta-inline">
                {a.source} · <ArticleDate published={a.published_at} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
