/**
 * Webhook deliveries as durable jobs (`webhook.delivery`, one per delivery, keyed by it). An event
 * becomes one stored delivery per enabled endpoint subscribed to it, with its body fixed then, and
 * a job each: the cause (an article's flow, a report, a run) only waits for those rows and jobs to
 * be written, never for a receiver. Each attempt is signed afresh (its own timestamp), recorded,
 * and retried by the queue with backoff on no answer, 5xx or 429; any other answer is final.
 */
import { createHmac, randomUUID } from 'node:crypto';
import {
  WEBHOOK_DELIVERIES_SHOWN,
  isDelivered,
  isRetryable,
  type WebhookEvent,
} from '../../domain/webhooks.js';
import type { JobOutcome, JobQueue, QueuedJob } from '../jobs/job-queue.ports.js';
import type { Clock, Logger } from '../shared/ports.js';
import type {
  WebhookEndpoint,
  WebhookEventSource,
  WebhookRepository,
  WebhookSender,
} from './webhooks.ports.js';

export const WEBHOOK_QUEUE = 'webhook.delivery';

/** `sha256=` and the hex HMAC-SHA256 of `<timestamp>.<body>` with the endpoint's secret. */
export const signature = (secret: string, timestamp: number, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

export interface WebhookDeliveryOptions {
  /** attempts per delivery (and per resend) */
  attempts: number;
  /** first retry delay; doubled per retry (at most 5 minutes) */
  retryDelaySeconds: number;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * How long the subscribed endpoints of an event are kept: every completed article asks, and without
 * webhooks that would be a database round trip per article for nothing. A change made here is seen
 * at once (`forget`); one made by another process within this time.
 */
const SUBSCRIBED_TTL_MS = 2000;

/**
 * The sweep of missed `article.published` events: an article whose flow completed but whose
 * deliveries were never written (the process died between the article's final write and their
 * insert) is found and sent late. It looks back this far, never before the endpoint was last saved,
 * and deliveries this young are never pruned, so a delivered event is never taken for a missed one.
 */
export const PUBLISHED_SWEEP_WINDOW_MS = 24 * 3600_000;
/** how often a worker sweeps (and once when it starts: a restart after a crash sends what was lost) */
export const PUBLISHED_SWEEP_EVERY_MS = 60_000;
/** articles sent per endpoint and sweep, at most; the next sweep goes on */
const PUBLISHED_SWEEP_BATCH = 200;

export class WebhookDeliveries {
  private started: Promise<void> | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;
  private readonly subscribedCache = new Map<
    WebhookEvent,
    { until: number; list: Promise<WebhookEndpoint[]> }
  >();

  constructor(
    private readonly d: {
      repo: WebhookRepository;
      queue: JobQueue;
      sender: WebhookSender;
      source: WebhookEventSource;
      clock: Clock;
      logger: Logger;
      /** PUBLIC_BASE_URL: the report page's address */
      siteUrl: string;
    } & WebhookDeliveryOptions,
  ) {}

  /** Defines the queue and starts working on it (idempotent). */
  start(): Promise<void> {
    return (this.started ??= this.boot().catch((err: unknown) => {
      this.started = undefined;
      throw err;
    }));
  }

  private async boot(): Promise<void> {
    await this.d.queue.define({
      name: WEBHOOK_QUEUE,
      retryLimit: Math.max(0, this.d.attempts - 1),
      retryDelaySeconds: this.d.retryDelaySeconds,
      // an attempt takes 10 s at most; one stuck longer (its process died) is tried again
      expireInSeconds: 60,
      heartbeatSeconds: 30,
      exclusiveKeys: true,
    });
    await this.d.queue.recoverOrphans(WEBHOOK_QUEUE);
    await this.d.queue.work<{ deliveryId: string }>(WEBHOOK_QUEUE, { batchSize: 1, loops: 4 }, (jobs) =>
      Promise.all(jobs.map((j) => this.attempt(j))),
    );
  }

  /** An article's processing completed (to the given endpoints only, when named). */
  articlePublished(articleId: string, to?: WebhookEndpoint[]): Promise<void> {
    return this.guarded(
      'article.published',
      articleId,
      async () => {
        const data = await this.d.source.article(articleId);
        return data && { key: `article:${articleId}`, data };
      },
      to,
    );
  }

  /** Sweeps now, then every PUBLISHED_SWEEP_EVERY_MS until `stop` (a worker process's loop). */
  startSweeping(): void {
    if (this.sweepTimer) return;
    void this.sweepPublished();
    this.sweepTimer = setInterval(() => void this.sweepPublished(), PUBLISHED_SWEEP_EVERY_MS);
    this.sweepTimer.unref?.();
  }

  stopSweeping(): Promise<unknown> {
    clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    return this.sweeping ?? Promise.resolve();
  }

  /**
   * Sends `article.published` for each completed article of the window that an enabled, subscribed
   * endpoint has no delivery for; answers how many articles were found. Never throws (logged). One
   * sweep at a time per process; processes sweeping together insert each delivery once (its
   * endpoint and subject are unique).
   */
  sweepPublished(): Promise<number> {
    return (this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined)));
  }

  private async sweep(): Promise<number> {
    let found = 0;
    try {
      const floor = this.d.clock.now().getTime() - PUBLISHED_SWEEP_WINDOW_MS;
      for (const endpoint of await this.d.repo.subscribed('article.published')) {
        const since = new Date(Math.max(floor, endpoint.updatedAt.getTime()));
        const ids = await this.d.source.publishedWithoutDelivery(endpoint.id, since, PUBLISHED_SWEEP_BATCH);
        for (const id of ids) await this.articlePublished(id, [endpoint]);
        if (ids.length) {
          found += ids.length;
          this.d.logger.warn({
            event: 'webhook.sweep.missed_events',
            endpoint_id: endpoint.id,
            webhook_event: 'article.published',
            count: ids.length,
          });
        }
      }
    } catch (err) {
      this.d.logger.error({ event: 'webhook.sweep.failed', error: message(err) });
    }
    return found;
  }

  /** A weekly report was stored. */
  reportCompleted(r: { id: string; topicId: string; weekStartDate: string; title: string }): Promise<void> {
    return this.guarded('report.completed', r.id, async () => ({
      key: `report:${r.id}`,
      data: {
        report_id: r.id,
        topic_id: r.topicId,
        topic: await this.d.source.topicName(r.topicId),
        week_start_date: r.weekStartDate,
        title: r.title,
        url: `${this.d.siteUrl}/reports?${new URLSearchParams({ topic: r.topicId, week: r.weekStartDate })}`,
      },
    }));
  }

  /** A run ended failed. */
  runFailed(runId: string, error: string | null): Promise<void> {
    return this.guarded('run.failed', runId, async () => ({
      key: `run:${runId}`,
      data: { run_id: runId, kind: await this.d.source.runKind(runId), error },
    }));
  }

  /**
   * The event's deliveries and jobs; nothing when no enabled endpoint subscribes. Never throws: the
   * cause has happened whatever becomes of its webhooks (a failure is logged).
   */
  /** an endpoint was added, changed or removed in this process: read the subscriptions again */
  forget(): void {
    this.subscribedCache.clear();
  }

  private subscribed(event: WebhookEvent): Promise<WebhookEndpoint[]> {
    const now = Date.now();
    const hit = this.subscribedCache.get(event);
    if (hit && hit.until > now) return hit.list;
    const list = this.d.repo.subscribed(event);
    this.subscribedCache.set(event, { until: now + SUBSCRIBED_TTL_MS, list });
    // a failed read is not kept
    list.catch(() => this.subscribedCache.delete(event));
    return list;
  }

  private async guarded(
    event: WebhookEvent,
    subject: string,
    build: () => Promise<{ key: string; data: object } | null>,
    to?: WebhookEndpoint[],
  ): Promise<void> {
    try {
      const endpoints = to ?? (await this.subscribed(event));
      if (!endpoints.length) return;
      const built = await build();
      if (!built) return;
      const eventId = randomUUID();
      const body = JSON.stringify({
        id: eventId,
        event,
        created_at: this.d.clock.now().toISOString(),
        data: built.data,
      });
      const ids = await this.d.repo.addDeliveries(
        endpoints.map((e) => ({ endpointId: e.id, event, eventId, dedupeKey: built.key, body })),
      );
      await this.enqueue(ids);
    } catch (err) {
      this.d.logger.error({
        event: 'webhook.enqueue_failed',
        webhook_event: event,
        subject,
        error: message(err),
      });
    }
  }

  /** Sends the deliveries' jobs; answers how many were added (a delivery with a job waiting adds none). */
  async enqueue(deliveryIds: string[]): Promise<number> {
    if (!deliveryIds.length) return 0;
    await this.start();
    return this.d.queue.send(
      WEBHOOK_QUEUE,
      deliveryIds.map((deliveryId) => ({ key: deliveryId, data: { deliveryId } })),
    );
  }

  /** One attempt of one delivery; the queue retries what answers `retry`. */
  async attempt(job: QueuedJob<{ deliveryId: string }>): Promise<JobOutcome> {
    const found = await this.d.repo.delivery(job.data.deliveryId);
    // deleted with its endpoint, or already delivered (a job run twice)
    if (!found || found.delivery.status === 'delivered') return { status: 'completed' };
    const { delivery, endpoint } = found;
    const n = delivery.attempts + 1;
    const at = this.d.clock.now();
    if (!endpoint.enabled) {
      const a = {
        attempt: n,
        at: at.toISOString(),
        status_code: null,
        latency_ms: 0,
        error: 'endpoint disabled',
      };
      await this.d.repo.recordAttempt(delivery.id, a, 'failed', null);
      return { status: 'completed' };
    }
    const timestamp = Math.floor(at.getTime() / 1000);
    const result = await this.d.sender.post(
      endpoint.url,
      {
        'content-type': 'application/json',
        'user-agent': 'article-intel-webhooks',
        'x-webhook-id': delivery.eventId,
        'x-webhook-timestamp': String(timestamp),
        'x-webhook-signature': signature(endpoint.secret, timestamp, delivery.body),
      },
      delivery.body,
    );
    const ok = isDelivered(result);
    const retry = !ok && isRetryable(result) && !job.lastAttempt;
    await this.d.repo.recordAttempt(
      delivery.id,
      {
        attempt: n,
        at: at.toISOString(),
        status_code: result.statusCode,
        latency_ms: result.latencyMs,
        error: result.error,
      },
      ok ? 'delivered' : retry ? 'retrying' : 'failed',
      result.excerpt,
    );
    this.d.logger[ok ? 'info' : 'warn']({
      event: ok ? 'webhook.delivered' : 'webhook.attempt_failed',
      delivery_id: delivery.id,
      endpoint_id: endpoint.id,
      webhook_event: delivery.event,
      attempt: n,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
      ...(result.error ? { error: result.error } : {}),
      ...(retry ? { retrying: true } : {}),
    });
    if (retry) return { status: 'retry', error: result.error ?? `HTTP ${result.statusCode}` };
    const before = new Date(at.getTime() - PUBLISHED_SWEEP_WINDOW_MS);
    await this.d.repo.prune(endpoint.id, WEBHOOK_DELIVERIES_SHOWN * 2, before).catch(() => 0);
    return { status: 'completed' };
  }
}
