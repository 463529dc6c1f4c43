import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializedDataDir } from '../helpers/service-process.js';

/** Runs the real CLI entry point; resolves with its exit code and output. */
function cli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/jobs/cli.ts', ...args], {
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, out })),
  );
}

describe('cli weekly-report', () => {
  // initialized: the CLI's first open of a directory is not what this file looks at
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await initializedDataDir('weekly-cli-');
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs without a language-model provider: exit 0, the run says it writes extractive digests', async () => {
    const { code, out } = await cli(['weekly-report', '--week-start', '2026-11-09', '--json'], {
      DATA_DIR: dataDir,
      AUTH_SECRET: 'cli-test-secret-cli-test-secret-0123456',
    });
    expect(code, out).toBe(0);
    const lines = out.split('\n').filter((l) => l.startsWith('{'));
    const logs = lines.map((l) => JSON.parse(l) as { level: string; event?: string; method?: string });
    expect(logs.find((l) => l.event === 'report.weekly.started')).toMatchObject({ method: 'extractive' });
    expect(logs.some((l) => l.event === 'report.weekly.no_provider')).toBe(false);
    // --json: the finished run (no topic has articles in that week: nothing to write, nothing failed)
    const run = logs.find((l) => !l.event && (l as { kind?: string }).kind === 'reports') as unknown as {
      status: string;
      summary: Record<string, unknown>;
    };
    expect(run).toMatchObject({ status: 'completed', summary: { week_start: '2026-11-09', failed: 0 } });
  }, 60_000);
});
