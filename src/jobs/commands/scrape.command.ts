import type { RunProgress } from '../../application/pipeline/scraper.service.js';
import type { Command } from './command.js';

/** A one-line progress bar on a TTY (stderr); nothing when output is piped. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): (p: RunProgress) => void {
  if (!stream.isTTY) return () => undefined;
  let last = '';
  return (p) => {
    const width = 30;
    const ratio = p.total > 0 ? Math.min(1, p.done / p.total) : 1;
    const filled = Math.round(ratio * width);
    const label = p.stage === 'articles' ? `articles ${p.done}/${p.total}` : p.stage;
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${label}`;
    if (line === last) return;
    last = line;
    stream.write(`\r\x1b[2K${line}${p.stage === 'done' ? '\n' : ''}`);
  };
}

export const scrapeCommands: Record<string, Command> = {
  scrape: {
    whileServiceRuns: 'start the run from the admin Jobs page (/admin/jobs) or POST /admin/scraper/runs',
    summary: 'Run the scraper pipeline once (discover, fetch, dedup, publish, analyze, tag, translate)',
    usage: 'scrape [--json]',
    options: { json: { type: 'boolean', default: false } },
    async run(c, v) {
      const result = await c.services.scraper.runNow('cli', progressBar());
      if (v.json) console.log(JSON.stringify(result));
      else {
        const counts = Object.entries(result.counts)
          .map(([k, n]) => `${k}=${n}`)
          .join(' ');
        console.log(`run ${result.id} ${result.status}${result.error ? `: ${result.error}` : ''}\n${counts}`);
      }
      return result.status === 'completed' ? 0 : 1;
    },
  },
};
