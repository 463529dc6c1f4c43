import {
  LINK_BATCH,
  MAX_BACKLOG_BATCH,
  type BacklogProgress,
} from '../../application/works/work-linker.service.js';
import type { Command } from './command.js';
import { barLine, drawBar } from '../terminal.js';

/** A one-line `\r` bar on a TTY; a plain line at the start, every 10% and at the end otherwise. */
export function linkProgress(stream: NodeJS.WriteStream = process.stderr): (p: BacklogProgress) => void {
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
    stream.write(`works:link: ${done}/${total} articles\n`);
  };
}

/** `--since`: an ISO date or instant (a bare date is midnight UTC) */
function parseSince(value: unknown): Date | null {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value))
    return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

export const workCommands: Record<string, Command> = {
  'works:link': {
    summary:
      'Link the backlog into works: final articles stored since a date and never linked (the per-minute tick looks one day back)',
    usage: `works:link --since YYYY-MM-DD[THH:MM:SSZ] [--batch N (1-${MAX_BACKLOG_BATCH}, default ${LINK_BATCH})] [--json]`,
    options: {
      since: { type: 'string' },
      batch: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
    whileServiceRuns: 'stop the service first (it links only what arrived in the last day)',
    async run(c, v) {
      const since = parseSince(v.since);
      if (!since) {
        console.error(`works:link: --since must be an ISO date such as 2026-01-01 (got ${String(v.since)})`);
        return 2;
      }
      const batch = v.batch === undefined ? LINK_BATCH : Number(v.batch);
      if (!Number.isInteger(batch) || batch < 1 || batch > MAX_BACKLOG_BATCH) {
        console.error(`works:link: --batch must be a whole number from 1 to ${MAX_BACKLOG_BATCH}`);
        return 2;
      }
      const started = Date.now();
      const summary = await c.services.workLinker.linkBacklog(since, {
        batch,
        progress: v.json ? undefined : linkProgress(),
      });
      const ms = Date.now() - started;
      console.log(
        v.json
          ? JSON.stringify({ since: since.toISOString(), ...summary, ms })
          : `linked ${summary.articles} articles stored since ${since.toISOString()} in ${summary.batches} batches ` +
              `(${ms} ms): ${summary.merged} works gained versions or copies, ${summary.coverage} articles cover another work`,
      );
      return 0;
    },
  },
};
