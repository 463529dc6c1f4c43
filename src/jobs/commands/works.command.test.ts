import { describe, expect, it } from 'vitest';
import { captureStream } from '../../../test/helpers/capture-stream.js';
import { linkProgress } from './works.command.js';

describe('the works:link progress', () => {
  it('redraws one line on a TTY and ends it at the last article', () => {
    const { s, out } = captureStream(true);
    const bar = linkProgress(s);
    for (let i = 0; i <= 4; i++) bar({ done: i, total: 4 });
    expect(out()).toContain('[###############---------------]  50% articles 2/4');
    expect(out().split('\n')).toHaveLength(2);
    expect(out().endsWith('100% articles 4/4\n')).toBe(true);
  });

  it('prints a plain line every tenth when the output is not a terminal', () => {
    const { s, out } = captureStream(false);
    const bar = linkProgress(s);
    for (let i = 0; i <= 1000; i += 100) bar({ done: i, total: 1000 });
    const lines = out().trim().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toBe('works:link: 0/1000 articles');
    expect(lines.at(-1)).toBe('works:link: 1000/1000 articles');
  });

  it('says so at once when there is nothing to link', () => {
    const { s, out } = captureStream(false);
    linkProgress(s)({ done: 0, total: 0 });
    expect(out()).toBe('works:link: 0/0 articles\n');
  });
});
