export interface RateLimitStrategy {
  /** requests per minute */
  rpm?: number;
  /** tokens per minute */
  tpm?: number;
  /** requests per day */
  rpd?: number;
}

export interface LimiterTiming {
  now(): number;
  sleep(ms: number): Promise<void>;
  /** window lengths; tests shorten them */
  minuteMs?: number;
  dayMs?: number;
}

const realTiming: LimiterTiming = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Sliding-window limits on requests per minute, tokens per minute and requests per day. A call
 * over a limit waits until the window has room (it never fails); callers are served in order.
 */
export class SlidingWindowLimiter {
  private minute: { at: number; tokens: number }[] = [];
  private day: number[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly minuteMs: number;
  private readonly dayMs: number;

  constructor(
    private readonly limits: RateLimitStrategy,
    private readonly timing: LimiterTiming = realTiming,
  ) {
    this.minuteMs = timing.minuteMs ?? 60_000;
    this.dayMs = timing.dayMs ?? 86_400_000;
  }

  /** Resolves when a request of `tokens` tokens may be sent; records it. */
  acquire(tokens: number): Promise<void> {
    const turn = this.queue.then(() => this.waitForRoom(tokens));
    this.queue = turn.catch(() => {});
    return turn;
  }

  private async waitForRoom(tokens: number): Promise<void> {
    for (;;) {
      const now = this.timing.now();
      const wait = this.waitMs(now, tokens);
      if (wait <= 0) {
        this.minute.push({ at: now, tokens });
        if (this.limits.rpd) this.day.push(now);
        return;
      }
      await this.timing.sleep(wait);
    }
  }

  private waitMs(now: number, tokens: number): number {
    while (this.minute.length && this.minute[0]!.at <= now - this.minuteMs) this.minute.shift();
    while (this.day.length && this.day[0]! <= now - this.dayMs) this.day.shift();
    let wait = 0;
    const { rpm, tpm, rpd } = this.limits;
    if (rpm && this.minute.length >= rpm) {
      wait = Math.max(wait, this.minute[this.minute.length - rpm]!.at + this.minuteMs - now);
    }
    if (tpm) {
      let used = this.minute.reduce((s, e) => s + e.tokens, 0);
      // a single request larger than the whole budget goes alone into an empty window
      const need = Math.min(tokens, tpm);
      for (const e of this.minute) {
        if (used + need <= tpm) break;
        used -= e.tokens;
        wait = Math.max(wait, e.at + this.minuteMs - now);
      }
    }
    if (rpd && this.day.length >= rpd) {
      wait = Math.max(wait, this.day[this.day.length - rpd]! + this.dayMs - now);
    }
    return wait > 0 ? Math.max(wait, 1) : 0;
  }
}

/** Rough token count of a request: about four characters per token, at least one per text. */
export const estimateTokens = (texts: string[]) =>
  texts.reduce((s, t) => s + Math.max(1, Math.ceil(t.length / 4)), 0);
