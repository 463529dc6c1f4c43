import { JobsService } from '../application/runs/jobs.service.js';
import { RunsService } from '../application/runs/runs.service.js';
import { METRIC_REFRESH_JOB } from '../application/metrics/metric-refresh.service.js';
import { DrizzleRunRepository } from '../infrastructure/db/repositories/run.repository.js';
import { configuredSecrets } from './secrets.js';
import { sendingRunFailures } from './webhooks.js';
import type { WebhookDeliveries } from '../application/webhooks/webhook-delivery.js';
import type { MetricRefreshService } from '../application/metrics/metric-refresh.service.js';
import type { WeeklyReportService } from '../application/reports/weekly-report.service.js';
import type { AreaWiring, WiringContext } from './context.js';

/**
 * Runs as records (GET /admin/runs) and the metric refresh and weekly reports as runs (202 from
 * their admin endpoints, the CLI, the cron). Needs the metrics and reports areas.
 * At start, the runs a dead process left queued or running are closed as interrupted.
 */
export const wireRuns = async (
  ctx: WiringContext,
  {
    metricRefresh,
    weeklyReports,
    webhooks,
  }: {
    metricRefresh: MetricRefreshService;
    weeklyReports: WeeklyReportService;
    webhooks?: WebhookDeliveries;
  },
): Promise<AreaWiring<'runs' | 'jobs'>> => {
  const logger = ctx.logger.child({ area: 'runs' });
  const runs = new RunsService(
    sendingRunFailures(new DrizzleRunRepository(ctx.db, configuredSecrets(ctx.config)), webhooks),
    ctx.clock,
    logger,
    ctx.llmUsage,
  );
  // PGlite is held by this process alone (the DATA_DIR lock): every run still open is a dead one's
  await runs.closeInterrupted({ exclusiveDatabase: ctx.database.kind === 'pglite' });
  const jobs = new JobsService(runs, metricRefresh, weeklyReports);
  // closers run in reverse: the runs in progress end before the stores close
  ctx.onClose(() => runs.idle());
  return {
    services: { runs, jobs },
    jobs: [
      {
        name: METRIC_REFRESH_JOB,
        cron: ctx.config.jobs.metricRefreshCron,
        run: () => jobs.refreshMetrics('cron'),
      },
      {
        name: 'weekly-report',
        cron: ctx.config.jobs.weeklyReportCron,
        run: () => jobs.weeklyReportRun('cron'),
      },
      // runs whose process died elsewhere are closed once their heartbeat is stale
      {
        name: 'runs-sweep',
        cron: '*/5 * * * *',
        run: () => runs.closeInterrupted({ exclusiveDatabase: false }),
      },
    ],
  };
};
