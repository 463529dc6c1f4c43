import { describe, expect, it } from 'vitest';
import { captureStream } from '../../../test/helpers/capture-stream.js';
import { refreshProgress } from './metrics.command.js';

describe('the refresh-metrics progress', () => {
  it('redraws one line on a TTY and ends it at the last article', () => {
    const { s, out } = captureStream(true);
    const bar = refreshProgress(s);
    for (let i = 0; i <= 4; i++) bar({ done: i, total: 4 });
    expect(out()).toContain('\r\x1b[2K[###############---------------]  50% articles 2/4');
    expect(out().split('\n')).toHaveLength(2);
    expect(out().endsWith('100% articles 4/4\n')).toBe(true);
  });

  it('prints a plain line every tenth when the output is not a terminal', () => {
    const { s, out } = captureStream(false);
    const bar = refreshProgress(s);
    for (let i = 0; i <= 100; i++) bar({ done: i, total: 100 });
    const lines = out().trim().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines.at(-1)).toBe('refresh-metrics: 100/100 articles');
    expect(out()).not.toContain('\r');
  });
});
