import { JobsService } from '../application/runs/jobs.service.js';
import { RunsService } from '../application/runs/runs.service.js';
import { METRIC_REFRESH_JOB } from '../application/metrics/metric-refresh.service.js';
import { DrizzleRunRepository } from '../infrastructure/db/repositories/run.repository.js';
import type { WireArea } from './context.js';

/**
 * Runs as records (GET /admin/runs) and the metric refresh and weekly reports as runs (202 from
 * their admin endpoints, the CLI, the cron). Needs the metrics and reports areas.
 * At start, the runs a dead process left queued or running are closed as interrupted.
 */
export const wireRuns: WireArea = async (ctx) => {
  const { metricRefresh, weeklyReports } = ctx.services;
  if (!metricRefresh || !weeklyReports) throw new Error('wireRuns needs the metrics and reports areas');
  const logger = ctx.logger.child({ area: 'runs' });
  const runs = new RunsService(new DrizzleRunRepository(ctx.db), ctx.clock, logger);
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
