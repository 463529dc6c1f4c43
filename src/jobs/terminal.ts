import type { RunView } from '../application/runs/runs.service.js';

/**
 * The CLI's terminal: one progress bar redrawn in place on stderr, and log lines printed above it
 * (the bar is cleared, the line written, the bar drawn again), so the two never mix.
 */
const shown = new WeakMap<NodeJS.WriteStream, string>();

export function drawBar(stream: NodeJS.WriteStream, line: string, final = false): void {
  stream.write(`\r\x1b[2K${line}${final ? '\n' : ''}`);
  if (final) shown.delete(stream);
  else shown.set(stream, line);
}

export function logAbove(stream: NodeJS.WriteStream, text: string): void {
  const bar = shown.get(stream);
  stream.write(bar === undefined ? `${text}\n` : `\r\x1b[2K${text}\n${bar}`);
}

export function barLine(ratio: number, label: string, width = 30): string {
  const r = Math.max(0, Math.min(1, ratio));
  const filled = Math.round(r * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.round(r * 100)).padStart(3)}% ${label}`;
}

/** a JSON log line as one short human line: `12:00:01 WARN metrics.source_failed message` */
export function compactLogLine(json: string): string {
  try {
    const l = JSON.parse(json) as {
      time?: string;
      level?: string;
      event?: string;
      msg?: string;
      err?: { message?: string };
    };
    const time = typeof l.time === 'string' ? l.time.slice(11, 19) : '';
    return [time, (l.level ?? '').toUpperCase(), l.event, l.msg ?? l.err?.message].filter(Boolean).join(' ');
  } catch {
    return json.trimEnd();
  }
}

/** where the CLI's log lines go: above the bar on a TTY, stderr with --json, else stdout as JSON */
export function cliLogDestination(json: boolean): { write(line: string): void } | undefined {
  if (json) return { write: (line) => void process.stderr.write(line) };
  if (process.stderr.isTTY) return { write: (line) => logAbove(process.stderr, compactLogLine(line)) };
  return undefined;
}

const seconds = (run: RunView) =>
  run.finished_at
    ? `${((Date.parse(run.finished_at) - Date.parse(run.started_at)) / 1000).toFixed(1)} s`
    : 'unfinished';

const STATUS_WORDS: Record<RunView['status'], string> = {
  queued: 'is queued',
  running: 'is running',
  completed: 'completed',
  completed_with_errors: 'completed with errors',
  failed: 'failed',
  interrupted: 'was interrupted',
};

/** the end of a run in a few readable lines: status, time, summary fields, the first errors */
export function describeRun(run: RunView, maxErrors = 10): string {
  const lines = [`${run.kind} run ${run.id} ${STATUS_WORDS[run.status]} in ${seconds(run)}`];
  if (run.error) lines.push(`  ${run.error}`);
  const fields = Object.entries(run.summary).map(([k, v]) => `${k.replaceAll('_', ' ')}: ${v}`);
  if (fields.length) lines.push(`  ${fields.join(', ')}`);
  if (run.error_count) {
    lines.push(`  ${run.error_count} item${run.error_count === 1 ? '' : 's'} failed:`);
    for (const e of run.errors.slice(0, maxErrors)) {
      const what = e.source_id
        ? `source ${e.source_id}`
        : e.article_id
          ? `article ${e.article_title ? `"${e.article_title}"` : e.article_id}`
          : e.topic_id
            ? `topic ${e.topic_id}`
            : 'run';
      lines.push(`  - ${what}: ${e.message}`);
    }
    if (run.error_count > maxErrors)
      lines.push(`  ... and ${run.error_count - maxErrors} more (GET /admin/runs/${run.id})`);
  }
  return lines.join('\n');
}

/** exit code of a run: 0 when every item was done, 1 when items or the run failed */
export const runExitCode = (run: RunView): number => (run.status === 'completed' ? 0 : 1);
