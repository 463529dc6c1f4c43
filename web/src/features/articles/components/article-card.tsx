import { Link } from 'react-router';
import { Check, Eye, Heart } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import type { Article } from '../api/articles';
import type { MetricDefinition } from '../api/metric-definitions';
import { ArticleDate } from './article-date';
import { MetricList } from './metric-list';
import { Snippet } from './snippet';
import { WorkVersions } from './work-versions';

interface Props {
  article: Article;
  /** the reader view's address, carrying the list's state */
  href: string;
  /** the reader view's address of another article (a version of this one's work) */
  hrefOf(articleId: string): string;
  definitions: MetricDefinition[];
  signedIn: boolean;
  selected: boolean;
  onFavorite(favorite: boolean): void;
  onRead(read: boolean): void;
  busy: boolean;
}

export function ArticleCard({
  article,
  href,
  hrefOf,
  definitions,
  signedIn,
  selected,
  onFavorite,
  onRead,
  busy,
}: Props) {
  const { t } = useI18n();
  // a list from before the read state (or a guest's) has no is_read: shown as unread, no toggle
  const isRead = article.is_read === true;
  const classes = ['card', 'article-card', isRead ? 'is-read' : 'is-unread', selected ? 'selected' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <article
      className={classes}
      data-article-id={article.id}
      data-read={signedIn ? String(isRead) : undefined}
      aria-current={selected ? 'true' : undefined}
    >
      <header>
        <h2>
          <Link to={href} data-testid="article-link">
            {article.title}
          </Link>
        </h2>
        {signedIn ? (
          <div className="card-actions">
            <button
              type="button"
              className={isRead ? 'icon-button read on' : 'icon-button read'}
              aria-pressed={isRead}
              aria-label={t(isRead ? 'articles.markUnread' : 'articles.markRead')}
              title={t(isRead ? 'articles.markUnread' : 'articles.markRead')}
              onClick={() => onRead(!isRead)}
              data-testid="read-toggle"
            >
              <Check size={18} aria-hidden="true" />
            </button>
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
          </div>
        ) : (
          <Link to="/login" className="icon-button heart" aria-label={t('articles.signInToFavorite')}>
            <Heart size={18} aria-hidden="true" />
          </Link>
        )}
      </header>
      <p className="meta">
        {article.source && <span>{article.source}</span>}
        <ArticleDate published={article.published_at} />
        {signedIn && !isRead && <span className="unread-dot">{t('articles.unread')}</span>}
      </p>
      {article.snippet && article.snippet.length > 0 ? (
        <Snippet segments={article.snippet} />
      ) : (
        article.summary && <p className="summary">{article.summary}</p>
      )}
      {article.tags.length > 0 && (
        <ul className="tags" aria-label={t('articles.tags')}>
          {article.tags.map((tag) => (
            <li key={tag}>{tag}</li>
          ))}
        </ul>
      )}
      <footer>
        <MetricList metrics={article.metrics} definitions={definitions} />
        {/* one card per work: its versions and the articles covering it (a list from before works has none) */}
        {article.work && (article.work.versions > 1 || article.work.coverage > 0) && (
          <WorkVersions work={article.work} hrefOf={hrefOf} />
        )}
        <span className="views" data-testid="views">
          <Eye size={16} aria-hidden="true" /> {t('articles.views', { count: article.view_count })}
        </span>
      </footer>
    </article>
  );
}
