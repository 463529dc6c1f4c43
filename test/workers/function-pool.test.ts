import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionPool,
  FunctionPoolError,
  type FunctionPoolOptions,
} from '../../src/infrastructure/workers/function-pool.js';
import { niceV8HelperThreads } from '../../src/infrastructure/workers/helper-threads.js';

const moduleUrl = new URL('../fixtures/workers/pool-functions.ts', import.meta.url);
const pools: FunctionPool[] = [];
const pool = (opts: Partial<FunctionPoolOptions> = {}) => {
  const p = new FunctionPool({ moduleUrl, name: 'test pool', ...opts });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

interface WhereAmI {
  threadId: number;
  value: unknown;
  at: Date;
}

describe('function pool', () => {
  it('starts no worker before the first call, runs calls in other threads, and clones results', async () => {
    const p = pool({ threads: 2 });
    expect(p.threadIds).toEqual([]);
    const r = await p.run<WhereAmI>('whereAmI', [{ tags: ['a'], n: 1 }]);
    expect(r.threadId).not.toBe(threadId);
    expect(p.threadIds).toContain(r.threadId);
    expect(r.value).toEqual({ tags: ['a'], n: 1 });
    // a Date survives the structured clone
    expect(r.at).toBeInstanceOf(Date);
    expect(r.at.getTime()).toBe(0);
  });

  it('runs calls in parallel on its threads, and never more threads than it has', async () => {
    const p = pool({ threads: 2 });
    const ids = await Promise.all([0, 1, 2, 3].map(() => p.run<number>('spin', [150])));
    expect(new Set(ids).size).toBe(2);
    expect(p.threadIds).toHaveLength(2);
  });

  it('a call over the time limit rejects, its worker is replaced, and the next call works', async () => {
    const p = pool({ threads: 1, timeLimitMs: 300 });
    const before = await p.run<number>('spin', [0]);
    const t0 = Date.now();
    const err = await p.run('forever', []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FunctionPoolError);
    expect((err as FunctionPoolError).reason).toBe('timeout');
    expect((err as Error).message).toMatch(/forever ran longer than 300 ms and was stopped/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    const after = await p.run<number>('spin', [0]);
    expect(after).not.toBe(before);
    expect(p.threadIds).toEqual([after]);
  });

  it('a worker that exits fails its own call only; the other calls succeed', async () => {
    const p = pool({ threads: 2 });
    const calls = [
      p.run<number>('spin', [200]),
      p.run('exit', [3]),
      p.run<number>('spin', [50]),
      p.run<number>('spin', [50]),
      p.run<number>('spin', [50]),
    ];
    const settled = await Promise.allSettled(calls);
    expect(settled.map((s) => s.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const reason = (settled[1] as PromiseRejectedResult).reason as FunctionPoolError;
    expect(reason.reason).toBe('crashed');
    expect(reason.message).toMatch(/exited with code 3/);
    expect(await p.run<number>('spin', [0])).not.toBe(threadId);
  });

  it('a worker whose heap blows up fails its own call only', async () => {
    const p = pool({
      threads: 1,
      resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    });
    const err = (await p.run('exhaustHeap', []).catch((e: unknown) => e)) as FunctionPoolError;
    expect(err.reason).toBe('crashed');
    expect(err.message).toMatch(/memory/i);
    expect((await p.run<WhereAmI>('whereAmI', [1])).value).toBe(1);
  }, 60_000);

  it('what a function throws keeps its name, message and fields; an uncloneable result fails its call', async () => {
    const p = pool({ threads: 1 });
    const err = (await p.run('failWithFields', []).catch((e: unknown) => e)) as Error &
      Record<string, unknown>;
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(FunctionPoolError);
    expect(err.name).toBe('ParseProblem');
    expect(err.message).toBe('bad line');
    expect(err.problem).toBe('malformed');
    expect(err.line).toBe(7);
    await expect(p.run('returnsAFunction', [])).rejects.toThrow(/could not be cloned/);
    await expect(p.run('noSuchFunction', [])).rejects.toThrow(/has no function noSuchFunction/);
    await expect(p.run('whereAmI', [() => 1])).rejects.toThrow(/could not be cloned/);
    expect((await p.run<WhereAmI>('whereAmI', [2])).value).toBe(2);
    // the same worker answered all of them
    expect(p.threadIds).toHaveLength(1);
  });

  it('refuses a call beyond the bounded queue at once', async () => {
    const p = pool({ threads: 1, maxQueue: 2 });
    await p.run('spin', [0]); // the worker has started: the next call runs at once, not queued
    const running = p.run<number>('spin', [300]);
    const queued = [p.run<number>('spin', [0]), p.run<number>('spin', [0])];
    const refused = (await p.run('spin', [0]).catch((e: unknown) => e)) as FunctionPoolError;
    expect(refused.reason).toBe('busy');
    expect(await running).not.toBe(threadId);
    await Promise.all(queued);
  });

  it('stops idle workers, and starts one again when work comes', async () => {
    const p = pool({ threads: 2, idleMs: 50 });
    const first = await p.run<number>('spin', [0]);
    await new Promise((r) => setTimeout(r, 300));
    expect(p.threadIds).toEqual([]);
    const second = await p.run<number>('spin', [0]);
    expect(second).not.toBe(first);
  });

  it('a module that does not load fails the calls waiting, and close rejects what runs', async () => {
    const broken = pool({ moduleUrl: new URL('../fixtures/workers/no-such-module.ts', import.meta.url) });
    const err = (await broken.run('spin', [0]).catch((e: unknown) => e)) as FunctionPoolError;
    expect(err.reason).toBe('start_failed');

    const p = pool({ threads: 1 });
    await p.run('spin', [0]);
    const running = p.run('forever', []).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await p.close();
    expect(((await running) as FunctionPoolError).reason).toBe('closed');
    await expect(p.run('spin', [0])).rejects.toThrow(/closed/);
  });

  it.runIf(process.platform === 'linux')(
    'runs its workers at the nice value asked for, and leaves the calling thread at its own',
    async () => {
      const own = getPriority();
      expect(await pool({ nice: 10 }).run<number>('myNice', [])).toBe(Math.max(own, 10));
      expect(await pool().run<number>('myNice', [])).toBe(own);
      expect(getPriority()).toBe(own);
    },
  );

  it.runIf(process.platform === 'linux')(
    'runs V8’s helper threads, which collect the workers’ garbage too, at that nice value',
    async () => {
      const helpers = () =>
        readdirSync('/proc/self/task')
          .filter((t) => readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim() === 'V8Worker')
          .map((t) => getPriority(Number(t)));
      expect(helpers().length).toBeGreaterThan(0);
      await pool({ nice: 12 }).run<number>('myNice', []);
      for (const nice of helpers()) expect(nice).toBeGreaterThanOrEqual(12);
      // a lower value later does not raise them again, and the caller keeps its own
      const own = getPriority();
      expect(niceV8HelperThreads(5)).toBe(0);
      for (const nice of helpers()) expect(nice).toBeGreaterThanOrEqual(12);
      expect(getPriority()).toBe(own);
    },
  );
});
