import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initializedDataDir } from '../helpers/service-process.js';
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
    // initialized: the first start's initdb is not what this file looks at
    dataDir = await initializedDataDir('ai-flush-');
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

describe('SIGTERM flushes the pending spans', () => {
  let receiver: OtlpReceiver;
  let dataDir: string;
  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
    dataDir = await initializedDataDir('ai-sigterm-');
  });
  afterAll(async () => {
    await receiver.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a worker stopped by SIGTERM right after a scheduled run has sent that run’s spans', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'worker'], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        SCRAPER_CRON: '* * * * * *',
        MONITOR_OTLP_USER: 'u',
        MONITOR_API_KEY: 'k',
        MONITOR_OTLP_ENDPOINT: receiver.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no run completed:\n${out}`)), 80_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('"event":"scraper.run.completed"')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    });
    // the batch delay (5 s) has not passed: only the shutdown's flush can have sent the spans
    const before = receiver.spans.filter((s) => s.name === 'scraper.run').length;
    child.kill('SIGTERM');
    expect(await exited, out).toBe(0);
    expect(receiver.spans.filter((s) => s.name === 'scraper.run').length).toBeGreaterThan(before);
    expect(receiver.logs.some((l) => l.attributes.event === 'process.signal')).toBe(true);
  }, 120_000);
});
