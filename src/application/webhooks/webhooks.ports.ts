import type { WebhookAttemptResult, WebhookDeliveryStatus, WebhookEvent } from '../../domain/webhooks.js';

export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  events: WebhookEvent[];
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookAttempt {
  attempt: number;
  at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  event: WebhookEvent;
  eventId: string;
  /** the exact body sent, every attempt and resend alike */
  body: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  attemptLog: WebhookAttempt[];
  responseExcerpt: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewDelivery {
  endpointId: string;
  event: WebhookEvent;
  eventId: string;
  dedupeKey: string;
  body: string;
}

export interface WebhookRepository {
  list(): Promise<WebhookEndpoint[]>;
  get(id: string): Promise<WebhookEndpoint | null>;
  /** the enabled endpoints subscribed to the event */
  subscribed(event: WebhookEvent): Promise<WebhookEndpoint[]>;
  create(e: {
    url: string;
    secret: string;
    events: WebhookEvent[];
    enabled: boolean;
  }): Promise<WebhookEndpoint>;
  update(
    id: string,
    patch: Partial<{ url: string; secret: string; events: WebhookEvent[]; enabled: boolean }>,
  ): Promise<WebhookEndpoint | null>;
  delete(id: string): Promise<boolean>;
  /** inserts the deliveries; one already stored for the endpoint and key is skipped. Answers the new ones' ids. */
  addDeliveries(rows: NewDelivery[]): Promise<string[]>;
  delivery(id: string): Promise<{ delivery: WebhookDelivery; endpoint: WebhookEndpoint } | null>;
  deliveries(endpointId: string, limit: number): Promise<WebhookDelivery[]>;
  /** appends the attempt, sets the status (and the answer's excerpt) */
  recordAttempt(
    id: string,
    a: WebhookAttempt,
    status: WebhookDeliveryStatus,
    excerpt: string | null,
  ): Promise<void>;
  setStatus(id: string, status: WebhookDeliveryStatus): Promise<void>;
  /**
   * deletes the endpoint's finished deliveries beyond its newest `keep`, those created before
   * `before` only (the newer ones are what the sweep of missed events compares against)
   */
  prune(endpointId: string, keep: number, before: Date): Promise<number>;
}

/** Whether an address may be reached by the outbound rules (FETCH_ALLOWED_HOSTS); the reason if not. */
export type WebhookUrlCheck = (url: string) => Promise<string | null>;

/** POSTs one signed body; checks the address again where it connects, never follows a redirect. */
export interface WebhookSender {
  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookAttemptResult>;
}

/** The data of an article.published event, read when it happens. */
export interface PublishedArticle {
  article_id: string;
  topic_id: string;
  title: string;
  url: string;
  summary: string | null;
  tags: string[];
  published_at: string | null;
}

export interface WebhookEventSource {
  article(id: string): Promise<PublishedArticle | null>;
  runKind(id: string): Promise<string | null>;
  /**
   * Completed articles scraped at or after `since` that have no `article.published` delivery to the
   * endpoint, oldest first, at most `limit`.
   */
  publishedWithoutDelivery(endpointId: string, since: Date, limit: number): Promise<string[]>;
  topicName(id: string): Promise<string | null>;
}
