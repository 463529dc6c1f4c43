import { useI18n } from '../../../lib/i18n';
import { formatDate } from '../../../lib/format';

/** The publication date, or "Date unknown": the collection date is never passed off as one. */
export function ArticleDate({ published }: { published: string | null }) {
  const { t, locale } = useI18n();
  if (!published)
    return (
      <span className="date-unknown" data-testid="date">
        {t('articles.dateUnknown')}
      </span>
    );
  return (
    <time dateTime={published} data-testid="date">
      {formatDate(published, locale)}
    </time>
  );
}
