import { describe, expect, it } from 'vitest';
import { captureStream } from '../../test/helpers/capture-stream.js';
import type { RunView } from '../application/runs/runs.service.js';
import { barLine, compactLogLine, describeRun, drawBar, logAbove, runExitCode } from './terminal.js';

describe('the CLI terminal', () => {
  it('prints a log line above the progress bar and draws the bar again below it', () => {
    const { s, out } = captureStream(true);
    drawBar(s, barLine(0.5, 'articles 1/2'));
    logAbove(s, '12:00:01 WARN metrics.source_failed');
    expect(out()).toBe(
      '\r\x1b[2K[###############---------------]  50% articles 1/2' +
        '\r\x1b[2K12:00:01 WARN metrics.source_failed\n[###############---------------]  50% articles 1/2',
    );
    drawBar(s, barLine(1, 'articles 2/2'), true);
    logAbove(s, 'after');
    expect(out().endsWith('articles 2/2\nafter\n')).toBe(true);
  });

  it('turns a JSON log line into one short line', () => {
    const line = JSON.stringify({
      time: '2026-11-24T12:00:01.000Z',
      level: 'warn',
      event: 'x.y',
      msg: 'hello',
    });
    expect(compactLogLine(line)).toBe('12:00:01 WARN x.y hello');
    expect(compactLogLine('not json\n')).toBe('not json');
  });

  it('ends with a readable summary naming the failed items, and exit 1 when any failed', () => {
    const run: RunView = {
      id: 'r1',
      kind: 'metrics',
      status: 'completed_with_errors',
      trigger: 'cli',
      started_at: '2026-11-24T12:00:00.000Z',
      finished_at: '2026-11-24T12:00:02.500Z',
      progress: { done: 3, total: 3 },
      summary: { articles: 3, updated: 2, failed: 1 },
      llm: { calls: 0, prompt_tokens: 0, completion_tokens: 0, by_purpose: [] },
      error: null,
      error_count: 1,
      errors: [{ article_id: 'a1', message: 'semantic_scholar: HTTP 503' }],
    };
    expect(describeRun(run)).toBe(
      'metrics run r1 completed with errors in 2.5 s\n' +
        '  articles: 3, updated: 2, failed: 1\n' +
        '  1 item failed:\n' +
        '  - article a1: semantic_scholar: HTTP 503',
    );
    expect(runExitCode(run)).toBe(1);
    expect(runExitCode({ ...run, status: 'completed', error_count: 0, errors: [] })).toBe(0);
  });
});
