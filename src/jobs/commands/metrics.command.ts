import type { RefreshProgress } from '../../application/metrics/metric-refresh.service.js';
import type { Command } from './command.js';

/** A one-line `\r` bar on a TTY; a plain line every 10% when output is piped. */
export function refreshProgress(stream: NodeJS.WriteStream = process.stderr): (p: RefreshProgress) => void {
  let lastDecile = -1;
  return ({ done, total }) => {
    const ratio = total > 0 ? done / total : 1;
    if (stream.isTTY) {
      const width = 30;
      const filled = Math.round(ratio * width);
      stream.write(
        `\r\x1b[2K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% articles ${done}/${total}${done === total ? '\n' : ''}`,
      );
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
      const started = Date.now();
      const s = await c.services.metricRefresh.runNow(refreshProgress());
      if (v.json) console.log(JSON.stringify(s));
      else {
        const sources = Object.entries(s.by_source)
          .map(([k, n]) => `${k}=${n}`)
          .join(' ');
        console.log(
          `refreshed ${s.articles} articles in ${Date.now() - started} ms: updated=${s.updated} unchanged=${s.unchanged} failed=${s.failed}${sources ? ` (${sources})` : ''}`,
        );
      }
      return 0;
    },
  },
};
