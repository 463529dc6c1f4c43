import { WebhookDeliveries } from '../application/webhooks/webhook-delivery.js';
import { WebhooksService } from '../application/webhooks/webhooks.service.js';
import {
  DrizzleWebhookEventSource,
  DrizzleWebhookRepository,
} from '../infrastructure/db/repositories/webhook.repository.js';
import { OutboundGuard } from '../infrastructure/http/outbound-guard.js';
import { HttpWebhookSender, outboundUrlCheck } from '../infrastructure/webhooks/http-webhook-sender.js';
import type { RunRepository } from '../application/runs/runs.ports.js';
import type { ReportRepository } from '../application/reports/reports.ports.js';
import type { AreaWiring, WiringContext } from './context.js';

/**
 * Signed webhooks: the admin's endpoints (/admin/webhooks) and their deliveries as durable jobs.
 * The URL is judged by the outbound rules of feed content (FETCH_ALLOWED_HOSTS) when saved and
 * where each attempt connects. Returns `events` for the areas whose happenings are sent.
 */
export const wireWebhooks = (ctx: WiringContext): AreaWiring<'webhooks'> & { events: WebhookDeliveries } => {
  const repo = new DrizzleWebhookRepository(ctx.db);
  const guard = new OutboundGuard(ctx.config.fetch.allowedHosts);
  const sender = new HttpWebhookSender(guard);
  ctx.onClose(() => sender.close());
  const logger = ctx.logger.child({ area: 'webhooks' });
  const events = new WebhookDeliveries({
    repo,
    queue: ctx.queue,
    sender,
    source: new DrizzleWebhookEventSource(ctx.db),
    clock: ctx.clock,
    logger,
    siteUrl: ctx.config.publicBaseUrl,
    ...ctx.config.webhooks,
  });
  return {
    events,
    services: {
      webhooks: new WebhooksService({ repo, check: outboundUrlCheck(guard), deliveries: events, logger }),
    },
    workers: [
      {
        name: 'webhook-deliveries',
        start: () => {
          void events
            .start()
            .catch((err: unknown) => logger.error({ event: 'webhook.jobs.start_failed', err }));
          // article.published events lost to a crash are found and sent late
          events.startSweeping();
        },
        ready: () => events.start(),
        // the queue itself is stopped by the pipeline's drain and the container
        stop: async () => void (await events.stopSweeping()),
      },
    ],
  };
};

/**
 * The store's `finish` also sends `run.failed` when a run ends failed (after the end is written),
 * whichever kind of run and whichever process ends it.
 */
export function sendingRunFailures<T extends Pick<RunRepository, 'finish'>>(
  store: T,
  events: WebhookDeliveries | undefined,
): T {
  if (!events) return store;
  const finish = store.finish.bind(store);
  store.finish = async (id, result) => {
    await finish(id, result);
    if (result.status === 'failed') await events.runFailed(id, result.error);
  };
  return store;
}

/** The report store's `saveCompleted` also sends `report.completed` for the stored report. */
export function sendingCompletedReports<T extends Pick<ReportRepository, 'saveCompleted'>>(
  store: T,
  events: WebhookDeliveries | undefined,
): T {
  if (!events) return store;
  const save = store.saveCompleted.bind(store);
  store.saveCompleted = async (report) => {
    const saved = await save(report);
    await events.reportCompleted(saved);
    return saved;
  };
  return store;
}
