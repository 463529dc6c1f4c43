import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { formatDate } from '../../../lib/format';
import type { WeeklyReport } from '../api/reports';
import { Markdown } from './markdown';

export function ReportView({ report }: { report: WeeklyReport }) {
  const { t, locale } = useI18n();
  const { hash } = useLocation();
  // the page renders after the data arrives, so the browser's own jump to #source-N may have missed
  useEffect(() => {
    if (hash.startsWith('#source-')) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash, report.id]);

  return (
    <article className="report" data-report-id={report.id}>
      {report.cover_image_url ? (
        <figure className="cover">
          <img src={report.cover_image_url} alt="" width={1600} height={900} />
        </figure>
      ) : null}
      <h2>{report.title}</h2>
      <p className="meta">
        <span>{t('reports.week', { date: formatDate(report.week_start_date, locale) })}</span>
        <span>{t('reports.articles', { count: report.article_count })}</span>
      </p>
      {report.sources.length > 0 ? (
        <Markdown text={report.summary_text} sourceCount={report.sources.length} />
      ) : (
        <p className="plain-summary">{report.summary_text}</p>
      )}
      {report.sources.length > 0 && (
        <section aria-labelledby={`sources-${report.id}`}>
          <h3 id={`sources-${report.id}`}>{t('reports.sources')}</h3>
          <ol className="sources">
            {report.sources.map((s, i) => (
              <li key={`${s.id}-${i}`} id={`source-${i + 1}`} tabIndex={-1} data-source-index={i + 1}>
                <Link to={`/articles/${s.public_article_id}`}>{s.title}</Link>{' '}
                <a href={s.url} target="_blank" rel="noopener noreferrer" className="source-url">
                  {hostOf(s.url)}
                </a>
              </li>
            ))}
          </ol>
        </section>
      )}
    </article>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
