import type { RunView } from '../../application/runs/runs.service.js';
import { barLine, describeRun, drawBar, runExitCode } from '../terminal.js';
import type { ServiceAnswer, ServiceApi } from './command.js';

const ACTIVE = new Set(['queued', 'running']);
const POLL_MS = 500;

/** An API error as one line, exit 2 for a refused request (4xx but 409), else 1. */
export function answerError(name: string, answer: ServiceAnswer<unknown> & { ok: false }): number {
  const details = (answer.details ?? []).map((d) => `${d.path ? `${d.path}: ` : ''}${d.message}`).join('; ');
  console.error(`${name}: ${answer.message}${details ? ` (${details})` : ''} [${answer.code}]`);
  return answer.status >= 400 && answer.status < 500 && answer.status !== 409 ? 2 : 1;
}

/**
 * Starts a run in the running service (a POST that answers `run_id`), follows it to its end with
 * the progress bar on a TTY, and prints it as the command does when it runs the job itself.
 */
export async function runInService(
  name: string,
  api: ServiceApi,
  start: { path: string; body?: unknown },
  json: boolean,
  stream: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  const started = await api.call<{ run_id: string }>('POST', start.path, start.body ?? {});
  if (!started.ok) return answerError(name, started);
  if (!json)
    console.error(`${name}: started in the running service (pid ${api.pid}), run ${started.body.run_id}`);
  for (;;) {
    const got = await api.call<RunView>('GET', `/admin/runs/${started.body.run_id}`);
    if (!got.ok) return answerError(name, got);
    const run = got.body;
    if (!json && stream.isTTY && run.progress.total > 0)
      drawBar(
        stream,
        barLine(run.progress.done / run.progress.total, `${run.progress.done}/${run.progress.total}`),
        false,
      );
    if (!ACTIVE.has(run.status)) {
      if (!json && stream.isTTY) drawBar(stream, barLine(1, 'done'), true);
      console.log(json ? JSON.stringify(run) : describeRun(run));
      return runExitCode(run);
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
