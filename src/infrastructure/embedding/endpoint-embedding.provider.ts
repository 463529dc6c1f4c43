import { scrubSecrets } from '../logging/scrub.js';
import { AppError } from '../../domain/errors.js';
import {
  EmbeddingShapeError,
  validateVectors,
  type EmbeddingKind,
  type EmbeddingProvider,
  type Vector,
} from '../../application/shared/embedding.js';
import {
  estimateTokens,
  SlidingWindowLimiter,
  type LimiterTiming,
  type RateLimitStrategy,
} from './sliding-window.limiter.js';

export interface EndpointEmbeddingOptions {
  /** base URL; requests go to `{url}/embed` */
  url: string;
  responseKey?: EmbeddingKind;
  apiKey?: string | null;
  /** required for dense */
  dimension?: number | null;
  timeoutSeconds?: number;
  retries?: number;
  retryDelaySeconds?: number;
  rateLimit?: RateLimitStrategy | null;
  /** limiter clock and window lengths (tests shorten the windows) */
  limiterTiming?: LimiterTiming;
  onRetry?(info: { attempt: number; delayMs: number; error: unknown }): void;
}

/** The embedding endpoint answered with an HTTP error status: raised at once, never retried. */
export class EmbeddingHttpError extends AppError {
  constructor(
    readonly upstreamStatus: number,
    body: string,
  ) {
    super(
      'Upstream',
      'embedding_http_error',
      `embedding endpoint answered ${upstreamStatus}: ${body.slice(0, 200)}`,
      undefined,
      {
        status: 502,
      },
    );
  }
}

// undici (fetch) and node:net codes of a request that never reached the service
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

export function isConnectionError(err: unknown): boolean {
  for (let e = err as { code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Client of an embedding service (README, "Tags and embeddings"): POST `{url}/embed` with `{texts}`, reads the key named
 * by `response_key`. Connection errors (a cold start) are retried with exponential backoff from
 * `retry_delay`; HTTP status errors are raised at once.
 */
export class EndpointEmbeddingProvider implements EmbeddingProvider {
  readonly kind: EmbeddingKind;
  readonly dimension: number | null;
  private readonly limiter: SlidingWindowLimiter | null;

  constructor(private readonly opts: EndpointEmbeddingOptions) {
    this.kind = opts.responseKey ?? 'dense';
    this.dimension = opts.dimension ?? null;
    if (this.kind === 'dense' && !this.dimension) {
      throw new Error('embedding endpoint: dimension is required for the dense response key');
    }
    const rl = opts.rateLimit;
    this.limiter =
      rl && (rl.rpm || rl.tpm || rl.rpd) ? new SlidingWindowLimiter(rl, opts.limiterTiming) : null;
  }

  async embed(texts: string[]): Promise<Vector[]> {
    if (texts.length === 0) return [];
    await this.limiter?.acquire(estimateTokens(texts));
    const retries = this.opts.retries ?? 3;
    const baseDelayMs = (this.opts.retryDelaySeconds ?? 2) * 1000;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request(texts);
      } catch (err) {
        if (!isConnectionError(err) || attempt >= retries) {
          if (isConnectionError(err)) {
            throw new AppError(
              'Upstream',
              'embedding_unreachable',
              `embedding endpoint unreachable after ${attempt + 1} attempts`,
              undefined,
              { cause: err, status: 502 },
            );
          }
          throw err;
        }
        const delayMs = baseDelayMs * 2 ** attempt;
        this.opts.onRetry?.({ attempt: attempt + 1, delayMs, error: err });
        await sleep(delayMs);
      }
    }
  }

  private async request(texts: string[]): Promise<Vector[]> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    const res = await fetch(`${this.opts.url.replace(/\/+$/, '')}/embed`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ texts }),
      signal: AbortSignal.timeout((this.opts.timeoutSeconds ?? 60) * 1000),
    });
    const body = await res.text();
    if (!res.ok)
      // the answer may echo the request: its Bearer key never goes into the error (and the log)
      throw new EmbeddingHttpError(res.status, scrubSecrets(body.slice(0, 1000), [this.opts.apiKey ?? '']));
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new AppError(
        'Upstream',
        'embedding_invalid_response',
        'embedding endpoint answered non-JSON',
        undefined,
        {
          status: 502,
        },
      );
    }
    try {
      return validateVectors((parsed as Record<string, unknown> | null)?.[this.kind], {
        kind: this.kind,
        dimension: this.dimension,
        count: texts.length,
      });
    } catch (err) {
      if (!(err instanceof EmbeddingShapeError)) throw err;
      throw new AppError(
        'Upstream',
        'embedding_invalid_response',
        `embedding endpoint: ${err.message}`,
        undefined,
        {
          status: 502,
          cause: err,
        },
      );
    }
  }
}
