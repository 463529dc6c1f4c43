import { useState } from 'react';
import { Link } from 'react-router';
import { Dialog } from '../../../lib/dialog';
import { formatNumber } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';
import { useSession } from '../../../lib/session';
import { useWork, type WorkVersion } from '../api/works';
import { ArticleDate } from './article-date';

interface Props {
  work: { id: string; versions: number; coverage: number };
  /** the reader view's address of one article */
  hrefOf(articleId: string): string;
}

/**
 * The card's "N versions · covered by M": a button opening the work's versions and the articles
 * covering it (the shared dialog), each opening in the reader view. Reading any version marks the
 * whole work read (docs/decisions/0143-marks-of-a-work.md).
 */
export function WorkVersions({ work, hrefOf }: Props) {
  const { t, locale } = useI18n();
  const { isAdmin } = useSession();
  const [open, setOpen] = useState(false);
  const query = useWork(work.id, open);
  const versions = query.data?.versions ?? [];
  const own = versions.filter((v) => v.role !== 'coverage');
  const coverage = versions.filter((v) => v.role === 'coverage');
  return (
    <>
      <button
        type="button"
        className="work-note link-button"
        data-testid="work-note"
        data-work-id={work.id}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {t('articles.work', {
          versions: formatNumber(work.versions, locale),
          coverage: formatNumber(work.coverage, locale),
        })}
      </button>
      {open && (
        <Dialog
          title={query.data?.title ?? t('works.title')}
          onClose={() => setOpen(false)}
          testId="work-versions"
          className="work-dialog"
        >
          {query.isPending && <p role="status">{t('works.loading')}</p>}
          {query.isError && <p role="alert">{t('works.failed')}</p>}
          {query.data && (
            <>
              <h3>{t('works.versions')}</h3>
              <VersionList versions={own} hrefOf={hrefOf} onOpen={() => setOpen(false)} />
              {coverage.length > 0 && (
                <>
                  <h3>{t('works.coverage', { count: formatNumber(query.data.coverage_count, locale) })}</h3>
                  <VersionList versions={coverage} hrefOf={hrefOf} onOpen={() => setOpen(false)} />
                </>
              )}
              {isAdmin && (
                <p className="work-manage">
                  <Link
                    to={`/admin/works?work=${encodeURIComponent(query.data.id)}`}
                    onClick={() => setOpen(false)}
                    data-testid="manage-work"
                  >
                    {t('works.manage')}
                  </Link>
                </p>
              )}
            </>
          )}
        </Dialog>
      )}
    </>
  );
}

function VersionList({
  versions,
  hrefOf,
  onOpen,
}: {
  versions: WorkVersion[];
  hrefOf(articleId: string): string;
  onOpen(): void;
}) {
  const { t } = useI18n();
  return (
    <ul className="work-versions">
      {versions.map((v) => (
        <li key={v.article_id} data-testid="work-version" data-role={v.role} data-article-id={v.article_id}>
          <span className={`work-role role-${v.role}`}>{t(`works.role.${v.role}`)}</span>{' '}
          <Link to={hrefOf(v.article_id)} onClick={onOpen}>
            {v.title}
          </Link>
          <span className="meta">
            {v.source && <span>{v.source}</span>} <ArticleDate published={v.published_at} />
          </span>
        </li>
      ))}
    </ul>
  );
}
