import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { DurationSequencer } from './test/helpers/duration-sequencer.js';

// Browser tests need Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it). On a
// machine without it they are left out with a note; under CI they always run, so a missing browser
// fails the run instead of silently skipping it.
const withBrowser =
  existsSync('/usr/bin/chromium') ||
  existsSync('/usr/bin/chromium-headless-shell') ||
  Boolean(process.env.CI);
if (!withBrowser)
  console.warn('browser tests left out: /usr/bin/chromium is missing (apt-get install -y chromium)');

/**
 * Files that measure the process they run in (its memory, CPU time or event-loop stalls) run in a
 * fresh one: a worker that ran other files before them would lend them its heap and its leftovers.
 * The long ones (the soak and the memory test) start the run beside the browser files; the short
 * ones time their own threads and loop, so the sequencer starts them last (`timing`), when the
 * machine is quietest
 */
const ISOLATED_LONG = ['test/soak/**/*.test.ts'];
const ISOLATED_TIMING = [
  'test/pipeline/feeds-normalise.test.ts',
  'test/pipeline/feeds-hostile.test.ts',
  'test/pipeline/feeds-parse-pool.test.ts',
  'test/db/pglite-turns.test.ts',
];
const CORES = availableParallelism();

/**
 * Half again as many workers as cores: many files spend much of their time waiting (a browser for a
 * page, a child process for its log line, a peer's schedule). With one worker a core, the two cores
 * of a CI machine stood idle a quarter of the run (632 s); with three, a tenth (571 s), and the run
 * is bound by CPU (the README's "Where the suite's time goes"). Four were no faster (436 s against
 * 417 in one pair of runs; 395 against 375-394 in a later one), and running the default files in a
 * phase of their own with four workers (`sequence.groupOrder`) once stalled a minute between the
 * phases, Vitest waiting for a worker of the first to stop
 */
const WORKERS = Math.max(2, Math.ceil(CORES * 1.5));

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    // TEST_CPU_RECORD=<path>: each file's CPU, for test/durations.json (npm run test:durations)
    setupFiles: ['test/helpers/cpu-recorder.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: WORKERS,
    // the projects one after another, each one's longest files first (test/durations.json)
    sequence: { sequencer: DurationSequencer },
    env: { NODE_ENV: 'test' },
    projects: [
      {
        extends: true,
        // files run one after another in a reused worker that keeps its loaded modules (isolate:
        // false): the app's module graph (fastify, drizzle, PGlite, OpenTelemetry, ...) is loaded
        // once per worker instead of once per file. Every file still builds its own app, database
        // and cache; the source keeps no per-process state a file could leave for the next one
        test: {
          name: 'default',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [
            'node_modules',
            'dist',
            'web/**',
            'test/browser/**',
            ...ISOLATED_LONG,
            ...ISOLATED_TIMING,
          ],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED_LONG,
          exclude: ['node_modules', 'dist', 'web/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'timing',
          include: ISOLATED_TIMING,
          exclude: ['node_modules', 'dist', 'web/**'],
        },
      },
      ...(withBrowser
        ? [
            {
              // headless Chromium against the built SPA (built once per run, before any file starts).
              // Each file has its own api, web role, in-memory database and browser on port 0, so its
              // files share the two workers with the default project's instead of running one by one
              // after them (which made them the suite's critical path)
              extends: true as const,
              test: {
                name: 'browser',
                include: ['test/browser/**/*.test.ts'],
                exclude: ['node_modules', 'dist', 'web/**'],
                // as in the default project: a worker loads the api, the web role and playwright once
                isolate: false,
                globalSetup: ['test/browser/helpers/global-setup.ts'],
                testTimeout: 120_000,
                hookTimeout: 180_000,
                // pages poll the api every 1-2 s; under a full suite on 2 cores a change can take a few
                // polls to show, and expect.poll's 1 s default failed journeys that were right
                expect: { poll: { timeout: 10_000 } },
              },
            },
          ]
        : []),
    ],
  },
});
