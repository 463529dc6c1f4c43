import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

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
  const dataDir = mkdtempSync(join(tmpdir(), 'weekly-cli-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('exits with code 1 and logs an error when no multimodal provider is active', async () => {
    const { code, out } = await cli(['weekly-report', '--week-start', '2026-11-09'], {
      DATA_DIR: dataDir,
      AUTH_SECRET: 'cli-test-secret-cli-test-secret-0123456',
    });
    expect(code).toBe(1);
    const logs = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; event?: string });
    expect(logs.find((l) => l.event === 'report.weekly.no_provider')).toMatchObject({ level: 'error' });
  }, 60_000);
});
