import { isUuid } from '../../domain/text.js';
import type { ReportLocale } from '../../domain/reports.js';
import type { ArticleSource, ReportRepository, ReportTranslation, WeeklyReport } from './reports.ports.js';

/**
 * The sources of a report, index-aligned with its [N] markers. Older reports stored other kinds of
 * ids, and a deleted article would shift every later marker: both serve an empty list instead.
 */
export async function resolveSources(repo: ReportRepository, ids: string[]): Promise<ArticleSource[]> {
  if (!ids.length || !ids.every(isUuid)) return [];
  const found = new Map((await repo.sources(ids)).map((s) => [s.id, s]));
  const out: ArticleSource[] = [];
  for (const id of ids) {
    const s = found.get(id.toLowerCase()) ?? found.get(id);
    if (!s) return [];
    out.push(s);
  }
  return out;
}

/** Title and summary in the asked language when a translation exists, else the original. */
export function localized(report: WeeklyReport, locale: ReportLocale | undefined): ReportTranslation {
  const t = locale && locale !== 'en' ? report.translations[locale] : undefined;
  return t ?? { title: report.title, summary_text: report.summaryText };
}
