import { isAppError } from '../../domain/errors.js';
import type { Command } from './command.js';
import { describeRun, runExitCode } from '../terminal.js';
import { runInService } from './service-run.js';

export const reportCommands: Record<string, Command> = {
  'weekly-report': {
    whileServiceRuns: 'start it from the admin Jobs page (/admin/jobs) or POST /admin/jobs/weekly-reports',
    summary: 'Generate and send the weekly reports (idempotent per topic and week)',
    usage: 'weekly-report [--topic-id ID] [--week-start YYYY-MM-DD] [--json]',
    options: {
      'topic-id': { type: 'string' },
      'week-start': { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    async run(c, v) {
      const topicId = typeof v['topic-id'] === 'string' ? v['topic-id'] : undefined;
      const weekStart = typeof v['week-start'] === 'string' ? v['week-start'] : undefined;
      try {
        const opts = { topicId, weekStart };
        // a bad id or an unknown topic is refused before a run is recorded
        await c.batch.weeklyReports.check(opts);
        const run = await c.services.jobs.weeklyReportRun('cli', opts, {
          step: v.json ? undefined : (line) => console.log(line),
        });
        console.log(v.json ? JSON.stringify(run) : describeRun(run));
        return runExitCode(run);
      } catch (err) {
        // the error itself is already logged by the job (e.g. report.weekly.no_provider)
        if (isAppError(err)) {
          console.error(`weekly-report: ${err.message}`);
          return err.kind === 'Invalid' ? 2 : 1;
        }
        throw err;
      }
    },
    viaService: (api, v) =>
      runInService(
        'weekly-report',
        api,
        {
          path: '/admin/jobs/weekly-reports',
          body: {
            ...(typeof v['topic-id'] === 'string' ? { topic_id: v['topic-id'] } : {}),
            ...(typeof v['week-start'] === 'string' ? { week_start: v['week-start'] } : {}),
          },
        },
        v.json === true,
      ),
  },
};
