import { Link } from 'react-router';
import { ArrowLeft, ChevronLeft, ChevronRight } from 'lucide-react';
import { useI18n } from '../../../lib/i18n';
import { listHref } from '../model/list-state';
import type { Neighbor } from '../model/use-neighbors';

interface Props {
  from: string | null;
  /** the article the reader comes back from: the list focuses its card */
  returnTo?: string;
  previous?: Neighbor;
  next?: Neighbor;
  position?: { index: number; total: number };
}

/** Back to the list as it was (sort, filters, page) and the neighbors within it. */
export function ReaderNav({ from, returnTo, previous, next, position }: Props) {
  const { t } = useI18n();
  return (
    <nav className="reader-nav" aria-label={t('articles.backToList')}>
      <Link
        to={listHref(from)}
        state={returnTo ? { returnTo } : undefined}
        className="back-link"
        data-testid="back-link"
      >
        <ArrowLeft size={16} aria-hidden="true" /> {from ? t('articles.backToList') : t('articles.back')}
      </Link>
      {position && (
        <span className="position" data-testid="position">
          {t('articles.position', position)}
        </span>
      )}
      <span className="neighbors">
        {previous ? (
          <Link to={previous.href} rel="prev" data-testid="previous-article" title={previous.article.title}>
            <ChevronLeft size={16} aria-hidden="true" /> {t('articles.previous')}
          </Link>
        ) : null}
        {next ? (
          <Link to={next.href} rel="next" data-testid="next-article" title={next.article.title}>
            {t('articles.next')} <ChevronRight size={16} aria-hidden="true" />
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
