/**
 * Writes test/durations.json from a full run: each test file's wall time and, when the run recorded
 * it, its CPU time (ms), longest first.
 *
 *   TEST_CPU_RECORD=cpu.jsonl npx vitest run --reporter=default --reporter=json --outputFile.json=run.json
 *   npm run test:durations -- run.json cpu.jsonl
 *
 * The suite's sequencer starts the longest files first by it and spreads the files that mostly wait
 * (test/helpers/duration-sequencer.ts); record it again from a full run after adding slow files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DURATIONS_FILE, type FileTimes } from '../test/helpers/duration-sequencer.js';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const [input, cpuInput] = process.argv.slice(2);
if (!input || (cpuInput && !existsSync(cpuInput))) {
  console.error('usage: npm run test:durations -- <vitest JSON report> [<TEST_CPU_RECORD file>]');
  process.exit(2);
}
const report = JSON.parse(readFileSync(input, 'utf8')) as Report;
const cpu = new Map<string, number>();
if (cpuInput)
  for (const line of readFileSync(cpuInput, 'utf8').split('\n').filter(Boolean)) {
    const { file, cpu_ms } = JSON.parse(line) as { file: string; cpu_ms: number };
    cpu.set(file, (cpu.get(file) ?? 0) + cpu_ms);
  }
const rows = report.testResults
  .map((r): [string, FileTimes] => {
    const path = relative(process.cwd(), r.name);
    const ms = Math.round(r.endTime - r.startTime);
    return [path, cpu.has(path) ? { ms, cpu_ms: cpu.get(path)! } : { ms }];
  })
  .sort((a, b) => b[1].ms - a[1].ms || a[0].localeCompare(b[0]));
writeFileSync(DURATIONS_FILE, `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`);
console.error(
  `${rows.length} files written to ${relative(process.cwd(), DURATIONS_FILE)}` +
    (cpuInput ? `, ${rows.filter((r) => r[1].cpu_ms !== undefined).length} with their CPU` : ''),
);
