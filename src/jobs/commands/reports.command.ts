import { isAppError } from '../../domain/errors.js';
import type { Command } from './command.js';

export const reportCommands: Record<string, Command> = {
  'weekly-report': {
    whileServiceRuns: 'start it from the admin Jobs page (/admin/jobs) or POST /admin/jobs/weekly-reports',
    summary: 'Generate and send the weekly reports (idempotent per topic and week)',
    usage: 'weekly-report [--topic-id ID] [--week-start YYYY-MM-DD]',
    options: {
      'topic-id': { type: 'string' },
      'week-start': { type: 'string' },
    },
    async run(c, v) {
      const topicId = typeof v['topic-id'] === 'string' ? v['topic-id'] : undefined;
      const weekStart = typeof v['week-start'] === 'string' ? v['week-start'] : undefined;
      try {
        const summary = await c.services.weeklyReports.run({ topicId, weekStart }, (p) =>
          console.log(`[${p.index}/${p.total}] ${p.topic.name}: ${p.step}`),
        );
        if (!summary.topics.length) console.log(`week ${summary.week_start}: no topic has articles`);
        for (const t of summary.topics) {
          const d = t.deliveries;
          console.log(
            `${t.topic_name}: ${t.status}${t.reason ? ` (${t.reason})` : ''}` +
              (d
                ? `, e-mail ${d.email.sent} sent / ${d.email.failed} failed, ` +
                  `messenger ${d.messenger.sent} sent / ${d.messenger.failed} failed`
                : ''),
          );
        }
        return summary.topics.some((t) => t.status === 'failed') ? 1 : 0;
      } catch (err) {
        // the error itself is already logged by the job (e.g. report.weekly.no_provider)
        if (isAppError(err)) {
          console.error(`weekly-report: ${err.message}`);
          return err.kind === 'Invalid' ? 2 : 1;
        }
        throw err;
      }
    },
  },
};
