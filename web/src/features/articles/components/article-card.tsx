import { Link } from 'react-router';
import { Eye, Heart } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { formatDate, formatNumber } from '../../../lib/format';
import type { Article } from '../api/articles';
import type { MetricDefinition } from '../api/metric-definitions';
import { MetricList } from './metric-list';

interface Props {
  article: Article;
  definitions: MetricDefinition[];
  signedIn: boolean;
  onFavorite(favorite: boolean): void;
  busy: boolean;
}

export function ArticleCard({ article, definitions, signedIn, onFavorite, busy }: Props) {
  const { t, locale } = useI18n();
  return (
    <article className="card article-card" data-article-id={article.id}>
      <header>
        <h2>
          <Link to={`/articles/${article.id}`}>{article.title}</Link>
        </h2>
        {signedIn ? (
          <button
            type="button"
            className={article.is_favorited ? 'icon-button heart on' : 'icon-button heart'}
            aria-pressed={article.is_favorited}
            aria-label={t(article.is_favorited ? 'articles.unfavorite' : 'articles.favorite')}
            disabled={busy}
            onClick={() => onFavorite(!article.is_favorited)}
            data-testid="favorite"
          >
            <Heart size={18} aria-hidden="true" fill={article.is_favorited ? 'currentColor' : 'none'} />
          </button>
        ) : (
          <Link to="/login" className="icon-button heart" aria-label={t('articles.signInToFavorite')}>
            <Heart size={18} aria-hidden="true" />
          </Link>
        )}
      </header>
      <p className="meta">
        {article.source && <span>{article.source}</span>}
        <time dateTime={article.published_at ?? article.scraped_at}>
          {formatDate(article.published_at ?? article.scraped_at, locale)}
        </time>
      </p>
      {article.summary && <p className="summary">{article.summary}</p>}
      {article.tags.length > 0 && (
        <ul className="tags" aria-label={t('articles.tags')}>
          {article.tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      )}
      <footer>
        <MetricList metrics={article.metrics} definitions={definitions} />
        <span className="views" data-testid="views">
          <Eye size={16} aria-hidden="true" />{' '}
          {t('articles.views', { count: formatNumber(article.view_count, locale) })}
        </span>
      </footer>
    </article>
  );
}
