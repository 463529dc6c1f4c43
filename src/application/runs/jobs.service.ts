import type {
  MetricRefreshService,
  RefreshProgress,
  RefreshSummary,
} from '../metrics/metric-refresh.service.js';
import type {
  RunProgress as ReportProgress,
  WeeklyReportService,
  WeeklyRunOptions,
  WeeklyRunSummary,
} from '../reports/weekly-report.service.js';
import type { Job, RunsService, RunView } from './runs.service.js';
import type { RunField } from '../../domain/runs.js';

/** What a job shows on a terminal while it runs (CLI). */
export interface JobWatch {
  progress?: (p: RefreshProgress) => void;
  /** a line of text about the current item */
  step?: (line: string) => void;
}

/** `by_source` flattened into plain fields: `from_<source>` (`from_none`: no source had a value) */
export function refreshSummaryFields(s: RefreshSummary): Record<string, number> {
  const fields: Record<string, number> = {
    articles: s.articles,
    updated: s.updated,
    unchanged: s.unchanged,
    failed: s.failed,
  } satisfies Partial<Record<RunField, number>>;
  for (const [source, n] of Object.entries(s.by_source)) fields[`from_${source}`] = n;
  return fields;
}

export function reportSummaryFields(s: WeeklyRunSummary): Record<string, string | number> {
  const count = (status: string) => s.topics.filter((t) => t.status === status).length;
  return {
    week_start: s.week_start,
    topics: s.topics.length,
    created: count('created'),
    existing: count('existing'),
    skipped: count('skipped'),
    failed: count('failed'),
  } satisfies Partial<Record<RunField, string | number>>;
}

/**
 * The metric refresh and the weekly reports as runs: from the admin endpoints (202 {run_id}),
 * the CLI and the cron, each recorded with its progress and the items that failed.
 */
export class JobsService {
  constructor(
    private readonly runs: RunsService,
    private readonly metricRefresh: MetricRefreshService,
    private readonly weeklyReports: WeeklyReportService,
  ) {}

  /** POST /admin/jobs/refresh-metrics */
  startMetricRefresh(): Promise<{ run_id: string }> {
    return this.runs.start('metrics', 'admin', this.metricsJob('admin'));
  }

  /** POST /admin/jobs/weekly-reports: a bad id, an unknown topic or no provider is refused at once */
  async startWeeklyReports(opts: WeeklyRunOptions): Promise<{ run_id: string }> {
    await this.weeklyReports.check(opts);
    return this.runs.start('reports', 'admin', this.reportsJob(opts));
  }

  /** the CLI and the cron: the run to its end */
  refreshMetrics(trigger: 'cli' | 'cron', watch: JobWatch = {}): Promise<RunView> {
    return this.runs.runToEnd('metrics', trigger, this.metricsJob(trigger, watch));
  }

  weeklyReportRun(
    trigger: 'cli' | 'cron',
    opts: WeeklyRunOptions = {},
    watch: JobWatch = {},
  ): Promise<RunView> {
    return this.runs.runToEnd('reports', trigger, this.reportsJob(opts, watch));
  }

  private metricsJob(trigger: string, watch: JobWatch = {}): Job {
    return async (t) => {
      const onProgress = (p: RefreshProgress) => {
        t.progress(p.done, p.total);
        watch.progress?.(p);
      };
      const onFailure = (f: { articleId: string; message: string }) =>
        t.error({ articleId: f.articleId, message: f.message });
      // the cron tick already holds the job's lock; the admin endpoint and the CLI take it
      const summary =
        trigger === 'cron'
          ? await this.metricRefresh.run(onProgress, onFailure)
          : await this.metricRefresh.runNow(onProgress, onFailure);
      return { summary: refreshSummaryFields(summary) };
    };
  }

  private reportsJob(opts: WeeklyRunOptions, watch: JobWatch = {}): Job {
    return async (t) => {
      const onStep: ReportProgress = (p) => {
        const finished = /^(done|skipped|failed)/.test(p.step);
        t.progress(finished ? p.index : p.index - 1, p.total);
        watch.step?.(`[${p.index}/${p.total}] ${p.topic.name}: ${p.step}`);
      };
      const summary = await this.weeklyReports.run(opts, onStep);
      for (const topic of summary.topics)
        if (topic.status === 'failed')
          t.error({ topicId: topic.topic_id, message: topic.reason ?? 'the report could not be written' });
      return { summary: reportSummaryFields(summary) };
    };
  }
}
