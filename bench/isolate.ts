/**
 * Every scenario of `npm run bench` runs in a process of its own (issue 30, item 8: measured
 * honestly; docs/performance.md, session 29). Run one after another in the bench's process, a
 * scenario's figure depended on the scenarios before it: their code compiled for other inputs
 * (both database drivers, tracing on and off), their modules and heap left behind, so the same tree
 * gave `pipeline.work_linking` 0.129-0.157 in a whole run and 0.088-0.095 alone. A service process
 * runs one role on one database; a scenario now starts from the same blank state whatever ran
 * before it, and a scenario that crashes or exits takes only its own results with it.
 *
 * The parent (bench/run.ts) starts `run.ts --child <file> <scenario>` with its own Node and loader
 * flags; the child runs that one scenario and writes its results, one JSON line each, to file
 * descriptor 3, a pipe only the parent reads, so the scenario's own output on stdout and stderr
 * passes through untouched.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeSync } from 'node:fs';
import { notRun } from './rounds.js';
import type { BenchContext, BenchResult, Scenario } from './types.js';

/** the flag bench/run.ts is started with in a scenario's own process */
export const CHILD_FLAG = '--child';
/** the descriptor a child writes its result lines to */
const RESULTS_FD = 3;

/** a scenario that did not give its results: a failed line saying why */
export function failedRun(scenario: string, notes: string): BenchResult {
  return { scenario, figure: NaN, unit: '', budget: 'runs', rounds: notRun(), pass: false, notes };
}

/** runs one scenario in this process; a thrown error is its one failed result */
export async function runHere(s: Scenario, ctx: BenchContext): Promise<BenchResult[]> {
  try {
    return await s.run(ctx);
  } catch (err) {
    return [failedRun(s.name, String(err))];
  }
}

/**
 * In the child: runs the named scenario of the file and writes its results to the parent. Exits
 * when done, whatever the scenario left open (servers, pools, timers).
 */
export async function childMain(file: string, name: string, ctx: BenchContext): Promise<never> {
  const mod = (await import(file)) as { scenarios: Scenario[] };
  const s = mod.scenarios.find((x) => x.name === name);
  const results = s ? await runHere(s, ctx) : [failedRun(name, `no scenario "${name}" in ${file}`)];
  for (const r of results) writeSync(RESULTS_FD, `${JSON.stringify(r)}\n`);
  process.exit(0);
}

/** a result line as the child wrote it (NaN arrives as null, as it prints) */
function parseLine(line: string, scenario: string): BenchResult {
  try {
    const r = JSON.parse(line) as BenchResult;
    if (r && typeof r === 'object' && typeof r.scenario === 'string') return r;
  } catch {
    // the line is reported below
  }
  return failedRun(scenario, `its process wrote a line that is not a result: ${line.slice(0, 200)}`);
}

/**
 * Runs one scenario in a new process started with this one's Node and loader flags (`script` is
 * bench/run.ts; `nodeFlags` the flags, by default this process's own) and answers its results; a process that dies or exits before writing any adds a
 * failed result saying how it ended.
 */
export async function runInChild(
  script: string,
  file: string,
  name: string,
  nodeFlags: readonly string[] = process.execArgv,
): Promise<BenchResult[]> {
  const child = spawn(process.execPath, [...nodeFlags, script, CHILD_FLAG, file, name], {
    stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
  });
  let out = '';
  const pipe = child.stdio[RESULTS_FD] as NodeJS.ReadableStream;
  pipe.setEncoding('utf8');
  pipe.on('data', (chunk: string) => (out += chunk));
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  const results = out
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => parseLine(l, name));
  if (code !== 0 || !results.length)
    results.push(
      failedRun(
        name,
        `its process ${signal ? `was ended by ${signal}` : `exited with code ${code}`}${results.length ? ' after its results' : ' before giving a result'}`,
      ),
    );
  return results;
}
