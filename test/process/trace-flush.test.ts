import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtlpReceiver } from '../peers/otlp-receiver.js';

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/jobs/cli.ts', ...args], {
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

describe('pending spans are sent before the process exits', () => {
  let receiver: OtlpReceiver;
  let dataDir: string;
  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    dataDir = mkdtempSync(join(tmpdir(), 'ai-flush-'));
  });
  afterAll(async () => {
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('`cli scrape` exits after its spans reached the receiver (the batch delay is far longer)', async () => {
    const { code, out } = await run(['scrape', '--json'], {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      MONITOR_OTLP_USER: 'u',
      MONITOR_API_KEY: 'k',
      MONITOR_OTLP_ENDPOINT: receiver.url,
    });
    expect(code, out).toBe(0);
    // nothing is waited for here: the spans must already be there when the process has exited
    const names = receiver.spans.map((s) => s.name);
    expect(names).toContain('scraper.run');
    expect(names).toEqual(
      expect.arrayContaining([
        'pipeline.discover',
        'pipeline.fetch',
        'pipeline.dedup',
        'pipeline.publish_articles',
      ]),
    );
    const root = receiver.spans.find((s) => s.name === 'scraper.run')!;
    expect(root.attributes['run.id']).toBe((JSON.parse(out.trim().split('\n').pop()!) as { id: string }).id);
  }, 90_000);
});
