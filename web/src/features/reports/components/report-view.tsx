import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import { useI18n } from '../../../lib/i18n';
import { formatDate, formatNumber } from '../../../lib/format';
import type { WeeklyReport } from '../api/reports';
import { Markdown } from './markdown';
import { Quote, ShieldCheck } from 'lucide-react';
import { useSession } from '../../../lib/session';
import './report-method.css';

export function ReportView({ report }: { report: WeeklyReport }) {
  const { t, locale } = useI18n();
  const { isAdmin } = useSession();
  const { hash } = useLocation();
  const grounding = report.grounding;
  const revised = grounding?.sentences.filter((s) => s.revised_from) ?? [];
  // the first supporting passage of each source, for its [N]
  const quotes = new Map<number, string>();
  for (const s of grounding?.sentences ?? [])
    for (const e of s.evidence) if (!quotes.has(e.n) && e.quote) quotes.set(e.n, e.quote);
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
      {grounding && grounding.sentences.length > 0 && (
        <p className="report-method" data-testid="report-grounding" data-score={grounding.score}>
          <ShieldCheck size={16} aria-hidden="true" />
          <span>
            {t(grounding.method === 'model' ? 'reports.groundingModel' : 'reports.grounding', {
              percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(
                grounding.score,
              ),
              count: grounding.sentences.length,
            })}
          </span>
        </p>
      )}
      {report.method === 'extractive' && (
        <p className="report-method" data-testid="report-method">
          <Quote size={16} aria-hidden="true" />
          <span>{t('reports.extractive')}</span>
        </p>
      )}
      {report.sources.length > 0 ? (
        <Markdown text={report.summary_text} sourceCount={report.sources.length} quotes={quotes} />
      ) : (
        <p className="plain-summary">{report.summary_text}</p>
      )}
      {isAdmin && grounding && grounding.removed.length > 0 && (
        <details className="report-removed" data-testid="report-removed">
          <summary>{t('reports.removed', { count: grounding.removed.length })}</summary>
          <ul>
            {grounding.removed.map((r, i) => (
              <li key={i}>
                <q>{r.text}</q> <span className="muted">{t(`reports.removedReason.${r.reason}`)}</span>
                {r.revised && (
                  <span className="muted revision">{t('reports.removedRevised', { text: r.revised })}</span>
                )}
              </li>
            ))}
          </ul>
        </details>
      )}
      {isAdmin && revised.length > 0 && (
        <details className="report-removed" data-testid="report-revised">
          <summary>{t('reports.revised', { count: revised.length })}</summary>
          <ul>
            {revised.map((s) => (
              <li key={s.index}>
                <q>{s.text}</q>{' '}
                <span className="muted">{t('reports.revisedFrom', { text: s.revised_from ?? '' })}</span>
              </li>
            ))}
          </ul>
        </details>
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
                {/* the work the source stands for, covered by other articles (docs/decisions/0125-works.md) */}
                {s.coverage > 0 && (
                  <span className="source-coverage" data-testid="source-coverage">
                    {' · '}
                    {t('reports.coveredBy', { count: formatNumber(s.coverage, locale) })}
                  </span>
                )}
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
