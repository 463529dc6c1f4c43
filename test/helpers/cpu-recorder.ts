import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * A setup file of every project: with `TEST_CPU_RECORD=<path>` it appends one line per test file,
 * `{"file", "cpu_ms"}`, to that path: the CPU the file's worker spent on it plus that of the child
 * processes it started and waited for (service processes, CLIs, peers such as Prometheus). A browser
 * shared by a worker's files is not among them. `npm run test:durations` reads these lines with the
 * run's JSON report; the sequencer tells files that mostly wait from those that work by them.
 * Without the variable, or off Linux, it does nothing.
 */
const target = process.env.TEST_CPU_RECORD;
const STAT = '/proc/self/stat';

/** CPU ticks (1/100 s) of this process and of its children that have been waited for */
const ticks = (): number => {
  const fields = readFileSync(STAT, 'utf8');
  const f = fields.slice(fields.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime: fields 14-17 of proc(5), here 11-14 after the state field
  return Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
};

if (target && existsSync(STAT)) {
  let start = 0;
  let file = '';
  // a file-level hook gets the file's suite as its second argument (Vitest wants the first one
  // destructured)
  // eslint-disable-next-line no-empty-pattern
  beforeAll(({}, suite) => {
    start = ticks();
    file = relative(process.cwd(), (suite as { filepath?: string }).filepath ?? '');
  });
  afterAll(() => {
    appendFileSync(target, `${JSON.stringify({ file, cpu_ms: (ticks() - start) * 10 })}\n`);
  });
}
