import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { formatDate } from '../../../lib/format';
import { ErrorState, Loading } from '../../../lib/ui';
import { recordView, useArticle } from '../api/articles';
import { useMetricDefinitions } from '../api/metric-definitions';
import { MetricList } from './metric-list';

export default function ArticleDetailPage() {
  const { id = '' } = useParams();
  const { t, locale } = useI18n();
  const article = useArticle(id);
  const definitions = useMetricDefinitions();

  useEffect(() => {
    if (article.isSuccess) recordView(id);
  }, [article.isSuccess, id]);

  if (article.isLoading) return <Loading />;
  if (article.isError || !article.data)
    return <ErrorState error={article.error} onRetry={() => void article.refetch()} />;
  const a = article.data;
  const zh = a.translations?.['zh-TW'];
  const showZhFirst = locale === 'zh-TW' && zh?.title;

  return (
    <article className="article-detail" data-article-id={a.id}>
      <Link to="/articles" className="back-link">
        <ArrowLeft size={16} aria-hidden="true" /> {t('articles.back')}
      </Link>
      <h1>{showZhFirst ? zh.title : a.title}</h1>
      <p className="meta">
        {a.source && <span>{a.source}</span>}
        {a.author && <span>{a.author}</span>}
        {a.published_at && (
          <span>
            {t('articles.published')}{' '}
            <time dateTime={a.published_at}>{formatDate(a.published_at, locale)}</time>
          </span>
        )}
        <span data-testid="views">{t('articles.views', { count: a.view_count })}</span>
      </p>
      <MetricList metrics={a.metrics} definitions={definitions.data ?? []} />
      {a.summary && (
        <section>
          <h2>{t('articles.summary')}</h2>
          <p>{showZhFirst && zh.summary ? zh.summary : a.summary}</p>
        </section>
      )}
      {zh && (zh.title || zh.summary) && !showZhFirst && (
        <section lang="zh-TW" className="translation" data-testid="translation">
          <h2>{t('articles.translation')}</h2>
          {zh.title && <h3>{zh.title}</h3>}
          {zh.summary && <p>{zh.summary}</p>}
        </section>
      )}
      {a.tags.length > 0 && (
        <section>
          <h2>{t('articles.tags')}</h2>
          <ul className="tags">
            {a.tags.map((tag) => (
              <li key={tag}>
                <Link to={`/articles?tag=${encodeURIComponent(tag)}`}>{tag}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      <p>
        <a href={a.url} target="_blank" rel="noopener noreferrer">
          {t('articles.readOriginal')} <ExternalLink size={14} aria-hidden="true" />
        </a>
      </p>
    </article>
  );
}
