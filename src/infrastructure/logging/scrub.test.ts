import { describe, expect, it } from 'vitest';
import { scrubLine } from './scrub.js';

describe('scrubLine: personal access tokens', () => {
  const token = `ais_pat_AbCdEfGh12_${'x9'.repeat(20)}`;

  it('keeps the public key of a token and drops its secret, wherever it stands', () => {
    for (const line of [
      `{"msg":"called with ${token} in a query"}`,
      `{"url":"/export?auth=${token}"}`,
      `{"header":"Bearer ${token}"}`,
    ]) {
      const out = scrubLine(line, []);
      expect(out, line).not.toContain('x9x9x9');
      expect(out).not.toContain(token);
    }
    expect(scrubLine(`{"msg":"${token}"}`, [])).toBe('{"msg":"ais_pat_AbCdEfGh12_[redacted]"}');
  });

  it('leaves a line without one alone', () => {
    expect(scrubLine('{"msg":"ais_pat is the prefix of tokens"}', [])).toBe(
      '{"msg":"ais_pat is the prefix of tokens"}',
    );
  });
});
