/**
 * Writes test/durations.json (each test file's wall time in ms, longest first) from a Vitest JSON
 * report: `npx vitest run --reporter=default --reporter=json --outputFile.json=run.json`, then
 * `npm run test:durations -- run.json`. The suite's sequencer starts the longest files first by it
 * (test/helpers/duration-sequencer.ts); record it again from a full run after adding slow files.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { DURATIONS_FILE } from '../test/helpers/duration-sequencer.js';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const input = process.argv[2];
if (!input) {
  console.error('usage: npm run test:durations -- <vitest JSON report>');
  process.exit(2);
}
const report = JSON.parse(readFileSync(input, 'utf8')) as Report;
const rows = report.testResults
  .map((r) => [relative(process.cwd(), r.name), Math.round(r.endTime - r.startTime)] as const)
  .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
writeFileSync(DURATIONS_FILE, `${JSON.stringify(Object.fromEntries(rows), null, 2)}\n`);
console.error(`${rows.length} files written to ${relative(process.cwd(), DURATIONS_FILE)}`);
