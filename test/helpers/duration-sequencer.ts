import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `test/durations.json`: each file's wall time (`ms`) in a recorded full run and, where that run
 * recorded it (`TEST_CPU_RECORD`, test/helpers/cpu-recorder.ts), its CPU time (`cpu_ms`), keyed by
 * its path (a file belongs to one project).
 * `npm run test:durations -- <vitest JSON report> [<CPU record>]` writes it again.
 */
export const DURATIONS_FILE = join(import.meta.dirname, '..', 'durations.json');

export interface FileTimes {
  ms: number;
  cpu_ms?: number;
}

/**
 * The projects in a fixed order, each one's longest files first. Vitest's own order runs the projects
 * by name (browser, default, isolated: the soak and the memory files started in the last minute and
 * were the run's tail) and, on a clean clone with no cache of earlier runs (CI), a project's files by
 * their size. Here the long isolated files (the soak and the memory test, a new process each) start
 * first, then the browser files, then the default ones, and the `timing` files (the parse pool, the
 * hostile feeds, PGlite's turns: they time their own process's threads and loop) run last, when the
 * machine is quietest; at the start, beside the soak and the first browsers, a 250 ms parse limit in
 * the parse-pool test was reached by an ordinary feed. Within a project a file's weight is its
 * duration in this machine's last run when Vitest's cache has it, else its recorded duration, else 0
 * (a new file runs among the short ones). Long files first keep the workers busy to the end (longest
 * processing time first); the projects stay one after another because a worker that moves to another
 * project is a new process that loads the modules again (interleaving every file by its duration
 * alone doubled the suite's import time).
 *
 * Some long files mostly wait: for a child process's start and stop, a peer's schedule (Prometheus
 * scrapes every 15 s), a pg-boss cron tick. Longest first, the default files began with three of
 * them at once and the two cores were a third busy for over a minute. So the files of a project that
 * wait (recorded CPU under 40 % of their wall time, 15 s or longer; browser files excepted, their
 * browser's work is not in the record) run beside the working ones, as many at once as the project
 * has workers beyond the machine's cores (at least one): the order is that of a simulated run on the
 * project's workers that starts the longest waiting file whenever fewer run, else the longest other.
 */
const WAITING = { minMs: 15_000, maxCpuShare: 0.4 };
/** the order of the projects */
const RANK: Record<string, number> = { isolated: 0, browser: 1, default: 2, timing: 3 };
const rankOf = (project: string) => RANK[project] ?? 4;

interface Planned<T> {
  file: T;
  weight: number;
  waits: boolean;
}

/**
 * The order in which `workers` workers, each taking the next file when it is free, run at most
 * `waitingAtOnce` waiting files at a time (more only when nothing else is left), each kind longest
 * first.
 */
export function spreadWaiting<T>(files: Planned<T>[], workers: number, waitingAtOnce = 1): T[] {
  const byWeight = (a: Planned<T>, b: Planned<T>) => b.weight - a.weight;
  const waiting = files.filter((f) => f.waits).sort(byWeight);
  const working = files.filter((f) => !f.waits).sort(byWeight);
  const order: T[] = [];
  const running: { end: number; waits: boolean }[] = [];
  let now = 0;
  while (waiting.length || working.length) {
    if (running.length >= workers) {
      running.sort((a, b) => a.end - b.end);
      now = running.shift()!.end;
    }
    const next =
      waiting.length && (!working.length || running.filter((r) => r.waits).length < waitingAtOnce)
        ? waiting.shift()!
        : working.shift()!;
    order.push(next.file);
    running.push({ end: now + next.weight, waits: next.waits });
  }
  return order;
}

export class DurationSequencer extends BaseSequencer {
  private recorded?: Record<string, FileTimes | number>;

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    this.recorded ??= existsSync(DURATIONS_FILE)
      ? (JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, FileTimes | number>)
      : {};
    const root = this.ctx.config.root;
    const groups = new Map<number, Planned<TestSpecification>[]>();
    for (const file of files) {
      const path = relative(root, file.moduleId);
      const entry = this.recorded[path];
      const recorded: FileTimes | undefined = typeof entry === 'number' ? { ms: entry } : entry;
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
      const weight = cached && !cached.failed ? cached.duration : (recorded?.ms ?? 0);
      const waits =
        file.project.name !== 'browser' &&
        recorded?.cpu_ms !== undefined &&
        recorded.ms >= WAITING.minMs &&
        recorded.cpu_ms < recorded.ms * WAITING.maxCpuShare;
      const rank = rankOf(file.project.name);
      groups.set(rank, [...(groups.get(rank) ?? []), { file, weight, waits }]);
    }
    const cores = availableParallelism();
    return [...groups.keys()]
      .sort((a, b) => a - b)
      .flatMap((rank) => {
        const planned = groups.get(rank)!;
        const workers = Number(planned[0]!.file.project.config.maxWorkers) || cores;
        return spreadWaiting(planned, workers, Math.max(1, workers - cores));
      });
  }
}
