import { describe, expect, it } from 'vitest';
import { captureStream } from '../../../test/helpers/capture-stream.js';
import { progressBar } from './scrape.command.js';

describe('the scrape progress bar', () => {
  it('draws one line per change on a TTY and ends it when the run is done', () => {
    const { s, out } = captureStream(true);
    const bar = progressBar(s);
    bar({ stage: 'articles', done: 5, total: 10 });
    bar({ stage: 'articles', done: 5, total: 10 });
    bar({ stage: 'done', done: 1, total: 1 });
    expect(out()).toContain('[###############---------------]  50% articles 5/10');
    expect(out().match(/articles 5\/10/g)).toHaveLength(1);
    expect(out().endsWith('100% done\n')).toBe(true);
  });

  it('prints nothing when the output is not a terminal', () => {
    const { s, out } = captureStream(false);
    progressBar(s)({ stage: 'articles', done: 1, total: 2 });
    expect(out()).toBe('');
  });
});
