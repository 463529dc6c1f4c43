/**
 * How many requests the service sends one model provider at once, learned from its answers
 * (additive increase, multiplicative decrease). A 429 halves the limit (once per burst: the requests
 * sent before the cut do not cut it again), remembers how many were in flight when the refused one
 * was sent as the provider's ceiling, and holds every new request until its `Retry-After` has
 * passed; each answered request raises the limit by 1/limit, up to that ceiling. The ceiling is
 * probed one request higher after a quiet minute, since other processes share the provider's limit
 * and it may have been raised. The refused request is sent again here: a rate limit costs time,
 * never a failed call.
 */

/** a Retry-After longer than this is waited for only this long before trying again */
const MAX_PAUSE_MS = 60_000;
/** without a 429 for this long, the learned ceiling is probed one higher */
const PROBE_AFTER_MS = 60_000;
/** the same request refused this many times in a row is answered with its 429 */
export const MAX_RATE_LIMITED_TRIES = 20;

interface Slot {
  /** requests in flight when this one was sent, itself included */
  inFlight: number;
  sentAt: number;
}

export interface LimitState {
  limit: number;
  ceiling: number;
  inFlight: number;
  waiting: number;
  rateLimited: number;
}

export class AdaptiveLimit {
  private limit: number;
  private ceiling: number;
  private inFlight = 0;
  private pausedUntil = 0;
  private lastCut = 0;
  private rateLimited = 0;
  private readonly waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    /** the most requests at once, whatever the provider allows */
    private readonly max: number,
    /** told of each cut: the new limit and how long new requests wait */
    private readonly onCut?: (s: LimitState & { pauseMs: number }) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.limit = max;
    this.ceiling = max;
  }

  state(): LimitState {
    return {
      limit: Math.floor(this.limit),
      ceiling: this.ceiling,
      inFlight: this.inFlight,
      waiting: this.waiters.length,
      rateLimited: this.rateLimited,
    };
  }

  /** resolves when a request may be sent; rejects with the signal's reason when it aborts first */
  async acquire(signal?: AbortSignal | null): Promise<Slot> {
    while (!this.free()) {
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const wake = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const i = this.waiters.indexOf(wake);
          if (i >= 0) this.waiters.splice(i, 1);
          reject(signal?.reason as Error);
        };
        signal?.addEventListener('abort', abort, { once: true });
        this.waiters.push(wake);
        this.schedule();
      });
    }
    this.inFlight++;
    return { inFlight: this.inFlight, sentAt: this.now() };
  }

  /** the request was answered (`retryAfterMs` set: with a 429) or failed otherwise (`ok` false) */
  release(slot: Slot, outcome: { ok: boolean; retryAfterMs?: number }): void {
    this.inFlight--;
    const now = this.now();
    if (outcome.retryAfterMs !== undefined) {
      this.rateLimited++;
      this.ceiling = Math.max(1, Math.min(this.ceiling, slot.inFlight - 1));
      const pauseMs = Math.min(MAX_PAUSE_MS, Math.max(0, outcome.retryAfterMs));
      this.pausedUntil = Math.max(this.pausedUntil, now + pauseMs);
      if (slot.sentAt >= this.lastCut) {
        this.limit = Math.max(1, Math.min(this.limit / 2, this.ceiling));
        this.lastCut = now;
        this.onCut?.({ ...this.state(), pauseMs });
      }
    } else if (outcome.ok) {
      if (this.ceiling < this.max && now - this.lastCut > PROBE_AFTER_MS) {
        this.ceiling++;
        this.lastCut = now;
      }
      this.limit = Math.min(this.ceiling, this.limit + 1 / this.limit);
    }
    this.wakeFree();
  }

  private free(): boolean {
    return this.now() >= this.pausedUntil && this.inFlight < Math.floor(this.limit);
  }

  /** wakes as many waiters as there are free slots (each checks again when it runs) */
  private wakeFree(): void {
    let room = this.now() >= this.pausedUntil ? Math.floor(this.limit) - this.inFlight : 0;
    while (room-- > 0 && this.waiters.length) this.waiters.shift()!();
    this.schedule();
  }

  /** while paused, one timer wakes the waiters when the pause ends */
  private schedule(): void {
    if (this.timer || !this.waiters.length) return;
    const wait = this.pausedUntil - this.now();
    if (wait <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.wakeFree();
    }, wait);
    this.timer.unref();
  }
}

/** Retry-After (seconds or an HTTP date) or retry-after-ms, in milliseconds; undefined when absent */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * A fetch for the model SDK that sends at most the limit's requests at once and answers a 429 by
 * waiting its Retry-After and sending the request again (at most MAX_RATE_LIMITED_TRIES times).
 */
export function limitedFetch(limit: AdaptiveLimit, inner: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    for (let tries = 1; ; tries++) {
      const slot = await limit.acquire(init?.signal);
      let res: Response;
      try {
        res = await inner(input, init);
      } catch (err) {
        limit.release(slot, { ok: false });
        throw err;
      }
      if (res.status !== 429 || tries >= MAX_RATE_LIMITED_TRIES) {
        limit.release(slot, { ok: res.ok });
        return res;
      }
      // without a Retry-After, a second
      limit.release(slot, { ok: false, retryAfterMs: retryAfterMs(res.headers) ?? 1000 });
      await res.body?.cancel().catch(() => undefined);
    }
  };
}
