import { describe, expect, it } from 'vitest';
import { estimateTokens, SlidingWindowLimiter, type LimiterTiming } from './sliding-window.limiter.js';

/** a clock that only moves when the limiter sleeps */
function fakeTiming(): LimiterTiming & { t: number; sleeps: number[] } {
  const timing = {
    t: 0,
    sleeps: [] as number[],
    now: () => timing.t,
    sleep: async (ms: number) => {
      timing.sleeps.push(ms);
      timing.t += ms;
    },
  };
  return timing;
}

describe('sliding-window limiter', () => {
  it('rpd: the third request of a day waits until the first one leaves the day window', async () => {
    const timing = fakeTiming();
    const limiter = new SlidingWindowLimiter({ rpd: 2 }, timing);
    await limiter.acquire(1);
    timing.t = 1000;
    await limiter.acquire(1);
    await limiter.acquire(1);
    expect(timing.t).toBe(86_400_000);
    expect(timing.sleeps).toEqual([86_399_000]);
  });

  it('rpm and tpm together: waits for whichever frees up last, in call order', async () => {
    const timing = fakeTiming();
    const limiter = new SlidingWindowLimiter({ rpm: 3, tpm: 100 }, timing);
    const order: number[] = [];
    await Promise.all([60, 30, 30, 10].map((tokens, i) => limiter.acquire(tokens).then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2, 3]);
    // 60 + 30 fit; the third (30) needs the first's 60 tokens to expire at t = 60 s
    expect(timing.sleeps[0]).toBe(60_000);
  });

  it('a request larger than the whole token budget still goes, alone', async () => {
    const timing = fakeTiming();
    const limiter = new SlidingWindowLimiter({ tpm: 10 }, timing);
    await limiter.acquire(50);
    await limiter.acquire(1);
    expect(timing.t).toBe(60_000);
  });

  it('estimates about four characters per token', () => {
    expect(estimateTokens(['abcdefgh', '', 'x'])).toBe(2 + 1 + 1);
  });
});
