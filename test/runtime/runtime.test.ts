import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeMajor, runtimeWarning, SUPPORTED_NODE_MAJOR } from '../../src/runtime.js';

const packagedNode = join(
  process.cwd(),
  'node_modules',
  `node-${process.platform}-${process.arch}`,
  'bin',
  'node',
);

describe('runtime', () => {
  it.runIf(existsSync(packagedNode))('runs the tests on the packaged Node 24', () => {
    expect(nodeMajor()).toBeGreaterThanOrEqual(SUPPORTED_NODE_MAJOR);
    // node_modules may be a link (a git worktree sharing one install): compare the real files
    expect(realpathSync(process.execPath)).toBe(realpathSync(packagedNode));
  });

  it('warns in one line on a system Node older than 22 and not on newer ones', () => {
    const warning = runtimeWarning('20.20.2');
    expect(warning).toMatch(/Node 20\.20\.2.*Node 24/);
    expect(warning).not.toContain('\n');
    expect(runtimeWarning('22.12.0')).toBeNull();
    expect(runtimeWarning('24.21.0')).toBeNull();
  });
});
