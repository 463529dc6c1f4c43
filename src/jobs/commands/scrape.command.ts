import type { RunProgress } from '../../application/pipeline/scraper.service.js';
import type { Command } from './command.js';
import { barLine, describeRun, drawBar, runExitCode } from '../terminal.js';
import { runInService } from './service-run.js';

/** A one-line progress bar on a TTY (stderr); nothing when output is piped. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): (p: RunProgress) => void {
  if (!stream.isTTY) return () => undefined;
  let last = '';
  return (p) => {
    const ratio = p.total > 0 ? Math.min(1, p.done / p.total) : 1;
    const line = barLine(ratio, p.stage === 'articles' ? `articles ${p.done}/${p.total}` : p.stage);
    if (line === last) return;
    last = line;
    drawBar(stream, line, p.stage === 'done');
  };
}

export const scrapeCommands: Record<string, Command> = {
  scrape: {
    whileServiceRuns: 'start the run from the admin Jobs page (/admin/jobs) or POST /admin/scraper/runs',
    summary: 'Run the scraper pipeline once (discover, fetch, dedup, publish, analyze, tag, translate)',
    usage: 'scrape [--json]',
    options: { json: { type: 'boolean', default: false } },
    async run(c, v) {
      const result = await c.services.scraper.runNow('cli', v.json ? undefined : progressBar());
      const run = await c.services.runs.get(result.id);
      console.log(v.json ? JSON.stringify(run) : describeRun(run));
      return runExitCode(run);
    },
    viaService: (api, v) => runInService('scrape', api, { path: '/admin/scraper/runs' }, v.json === true),
  },
};
