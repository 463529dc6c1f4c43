import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `test/durations.json`: each file's wall time (ms) in a recorded full run, keyed by its path (a file
 * belongs to one project).
 * `npm run test:durations -- <vitest JSON report>` writes it again.
 */
export const DURATIONS_FILE = join(import.meta.dirname, '..', 'durations.json');

/**
 * The projects in a fixed order, each one's longest files first. Vitest's own order runs the projects
 * by name (browser, default, isolated: the soak and the memory files started in the last minute and
 * were the run's tail) and, on a clean clone with no cache of earlier runs (CI), a project's files by
 * their size. Here the long isolated files (the soak and the memory test, a new process each) start
 * first, then the browser files, then the default ones, and the short isolated files (the parse pool,
 * the hostile feeds, PGlite's turns: they time their own process's threads and loop) run last, when
 * the machine is quietest; at the start, beside the soak and the first browsers, a 250 ms parse limit
 * in the parse-pool test was reached by an ordinary feed. Within a group a file's weight is its
 * duration in this machine's last run when Vitest's cache has it, else its recorded duration, else 0
 * (a new file runs among the short ones). Long files first keep the workers busy to the end (longest
 * processing time first); the projects stay one after another because a worker that moves to another
 * project is a new process that loads the modules again (interleaving every file by its duration
 * alone doubled the suite's import time).
 */
const LONG_MS = 20_000;
/** the group a file starts in: long isolated, browser, default, short isolated, anything else */
const GROUP: Record<string, number> = { browser: 1, default: 2 };
const rankOf = (project: string, weight: number) =>
  project === 'isolated' ? (weight >= LONG_MS ? 0 : 3) : (GROUP[project] ?? 4);

export class DurationSequencer extends BaseSequencer {
  private recorded?: Record<string, number>;

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    this.recorded ??= existsSync(DURATIONS_FILE)
      ? (JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>)
      : {};
    const root = this.ctx.config.root;
    const weight = new Map<TestSpecification, number>();
    for (const file of files) {
      const path = relative(root, file.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${file.project.name}:${path}`);
      weight.set(file, cached && !cached.failed ? cached.duration : (this.recorded[path] ?? 0));
    }
    const rank = (f: TestSpecification) => rankOf(f.project.name, weight.get(f)!);
    return [...files].sort((a, b) => rank(a) - rank(b) || weight.get(b)! - weight.get(a)!);
  }
}
