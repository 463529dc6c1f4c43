import type { RefreshProgress } from '../../application/metrics/metric-refresh.service.js';
import type { Command } from './command.js';
import { barLine, describeRun, drawBar, runExitCode } from '../terminal.js';
import { runInService } from './service-run.js';

/** A one-line `\r` bar on a TTY; a plain line every 10% when output is piped. */
export function refreshProgress(stream: NodeJS.WriteStream = process.stderr): (p: RefreshProgress) => void {
  let lastDecile = -1;
  return ({ done, total }) => {
    const ratio = total > 0 ? done / total : 1;
    if (stream.isTTY) {
      drawBar(stream, barLine(ratio, `articles ${done}/${total}`), done === total);
      return;
    }
    const decile = Math.floor(ratio * 10);
    if (decile === lastDecile) return;
    lastDecile = decile;
    stream.write(`refresh-metrics: ${done}/${total} articles\n`);
  };
}

export const metricCommands: Record<string, Command> = {
  'refresh-metrics': {
    whileServiceRuns: 'start it from the admin Jobs page (/admin/jobs) or POST /admin/jobs/refresh-metrics',
    summary: 'Refresh missing or stale article metrics (citation counts) from the citation APIs',
    usage: 'refresh-metrics [--json]',
    options: { json: { type: 'boolean', default: false } },
    async run(c, v) {
      const run = await c.services.jobs.refreshMetrics('cli', {
        progress: v.json ? undefined : refreshProgress(),
      });
      console.log(v.json ? JSON.stringify(run) : describeRun(run));
      return runExitCode(run);
    },
    viaService: (api, v) =>
      runInService('refresh-metrics', api, { path: '/admin/jobs/refresh-metrics' }, v.json === true),
  },
};
