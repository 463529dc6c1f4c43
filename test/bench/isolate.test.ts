import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runInChild } from '../../bench/isolate.js';
import { roundsProblem } from '../../bench/rounds.js';

const script = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));
const file = fileURLToPath(new URL('./fixtures/isolated-scenarios.ts', import.meta.url));
// the test runner's own flags are not tsx's: the child is started as `npm run bench` starts it
const run = (name: string) => runInChild(script, file, name, ['--import', 'tsx']);

describe('bench: each scenario in a process of its own', () => {
  it('runs every scenario in a new process, none after another in the same one', async () => {
    const [first] = await run('first');
    const [second] = await run('second');
    for (const r of [first!, second!]) {
      expect(r).toMatchObject({ pass: true, unit: 'pid', notes: 'runs in this process: 1' });
      expect(roundsProblem(r)).toBeNull();
      expect(r.figure).not.toBe(process.pid);
    }
    expect(first!.figure).not.toBe(second!.figure);
    expect(first!.scenario).toBe('first');
  }, 60_000);

  it('turns a thrown error, an exit and a killed process into one failed result each', async () => {
    const [thrown] = await run('throws');
    expect(thrown).toMatchObject({ scenario: 'throws', pass: false, rounds: { n: 0 } });
    expect(thrown!.notes).toContain('the peer did not start');
    expect(roundsProblem(thrown!)).toBeNull();

    expect(await run('exits')).toEqual([
      expect.objectContaining({
        scenario: 'exits',
        pass: false,
        notes: 'its process exited with code 3 before giving a result',
      }),
    ]);
    expect(await run('aborts')).toEqual([
      expect.objectContaining({
        scenario: 'aborts',
        pass: false,
        notes: 'its process was ended by SIGKILL before giving a result',
      }),
    ]);
    const [missing] = await run('nowhere');
    expect(missing).toMatchObject({ scenario: 'nowhere', pass: false });
    expect(missing!.notes).toMatch(/no scenario "nowhere"/);
  }, 60_000);
});
