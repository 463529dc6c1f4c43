import { isIsoDate, mondayOf, type ReportLocale, type ReportMethod } from '../../domain/reports.js';
import { invalid, notFound } from '../../domain/errors.js';
import type { Grounding } from '../../domain/grounding.js';
import type { MediaStorage, ReportRepository, WeeklyReport } from './reports.ports.js';
import { localized, resolveSources } from './report-sources.js';

/** A weekly report as the public API answers it (GET /weekly-reports/…). */
export interface WeeklyReportOut {
  id: string;
  topic_id: string;
  week_start_date: string;
  title: string;
  summary_text: string;
  cover_image_url: string | null;
  article_count: number;
  status: string;
  /** model: written by a language model; extractive: quoted from the articles, without one */
  method: ReportMethod;
  created_at: string;
  /** how well the cited sentences are supported by their sources; null for older reports */
  grounding: Grounding | null;
  sources: { id: string; title: string; url: string; public_article_id: string; coverage: number }[];
}

/** GET /weekly-reports/schedule */
export interface ReportScheduleOut {
  /** the next scheduled run of the weekly report job; null when this site writes none on a schedule */
  next_due_at: string | null;
  /** the cron expression it follows (WEEKLY_REPORT_CRON); null when not scheduled */
  cron: string | null;
}

/** when the weekly report job runs next by the configured schedule, or null when it is not scheduled */
export type NextReportDue = () => { cron: string; at: Date } | null;

const MEDIA_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** The public read side of weekly reports, and the media files they link to. */
export class ReportsService {
  constructor(
    private readonly reports: ReportRepository,
    private readonly media: MediaStorage,
    private readonly nextDue: NextReportDue = () => null,
  ) {}

  /** when the next weekly report is due (the scheduler's next tick), or nulls when none is scheduled */
  schedule(): ReportScheduleOut {
    const due = this.nextDue();
    return { next_due_at: due?.at.toISOString() ?? null, cron: due?.cron ?? null };
  }

  async list(q: { topicId: string; limit?: number; offset?: number; locale?: ReportLocale }) {
    const limit = q.limit ?? 10;
    const offset = q.offset ?? 0;
    const { items, total } = await this.reports.list(q.topicId, { limit, offset });
    return { items: await Promise.all(items.map((r) => this.out(r, q.locale))), total, limit, offset };
  }

  async latest(q: { topicId: string; locale?: ReportLocale }): Promise<WeeklyReportOut | null> {
    const r = await this.reports.latestCompleted(q.topicId);
    return r ? this.out(r, q.locale) : null;
  }

  /** any date of the week finds that week's report */
  async byWeek(q: { topicId: string; weekStart: string; locale?: ReportLocale }): Promise<WeeklyReportOut> {
    if (!isIsoDate(q.weekStart))
      throw invalid('week_start must be a date (YYYY-MM-DD)', 'invalid_week_start');
    const r = await this.reports.findByWeek(q.topicId, mondayOf(new Date(`${q.weekStart}T00:00:00Z`)));
    if (!r) throw notFound('weekly report', 'report_not_found');
    return this.out(r, q.locale);
  }

  /** a stored public file; null for unknown or unsafe keys */
  async mediaFile(key: string): Promise<{ data: Buffer; contentType: string } | null> {
    if (!MEDIA_KEY.test(key) || key.split('/').some((part) => part.startsWith('.'))) return null;
    return this.media.get(key);
  }

  private async out(r: WeeklyReport, locale: ReportLocale | undefined): Promise<WeeklyReportOut> {
    const text = localized(r, locale);
    const sources = await resolveSources(this.reports, r.articleIds);
    return {
      id: r.id,
      topic_id: r.topicId,
      week_start_date: r.weekStartDate,
      title: text.title,
      summary_text: text.summary_text,
      cover_image_url: r.coverImageUrl,
      article_count: r.articleCount,
      status: r.status,
      method: r.method,
      created_at: r.createdAt.toISOString(),
      grounding: r.grounding,
      sources: sources.map((s) => ({
        id: s.id,
        title: s.title,
        url: s.url,
        public_article_id: s.id,
        coverage: s.coverage ?? 0,
      })),
    };
  }
}
