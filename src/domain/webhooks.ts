/** What a webhook endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ['article.published', 'report.completed', 'run.failed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export type WebhookDeliveryStatus = 'pending' | 'retrying' | 'delivered' | 'failed';

/** The most a delivery's answer is read of; the rest is dropped unread. */
export const WEBHOOK_RESPONSE_MAX_BYTES = 4096;
/** An attempt (connect, send, answer) that takes longer is a timeout, retried like a network error. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Deliveries the admin sees per endpoint (newest first); older finished ones are pruned beyond a margin. */
export const WEBHOOK_DELIVERIES_SHOWN = 50;

/** What one attempt came to. */
export interface WebhookAttemptResult {
  /** the HTTP status, null when none came (refused, network error, timeout) */
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** the answer's first bytes, as text */
  excerpt: string | null;
  /** the address was refused by the outbound rules: retrying does not help */
  refused?: boolean;
}

/** 2xx is delivered. */
export const isDelivered = (r: WebhookAttemptResult) =>
  r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;

/**
 * Worth another attempt: no answer (network error, timeout), 5xx or 429. Any other answer (a 4xx,
 * a redirect, which is never followed) and a refused address are final.
 */
export const isRetryable = (r: WebhookAttemptResult) =>
  !r.refused && (r.statusCode === null || r.statusCode >= 500 || r.statusCode === 429);
