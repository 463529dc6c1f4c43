/**
 * The admin's webhook endpoints: their URL is judged by the outbound rules of feeds when saved (and
 * again by the sender where it connects), their secret is generated when none is given and answered
 * once, and their last deliveries are listed and can be sent again.
 */
import { randomBytes } from 'node:crypto';
import { AppError, conflict, invalid, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/text.js';
import { WEBHOOK_DELIVERIES_SHOWN, type WebhookEvent } from '../../domain/webhooks.js';
import type { Logger } from '../shared/ports.js';
import type { WebhookDeliveries } from './webhook-delivery.js';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookRepository,
  WebhookUrlCheck,
} from './webhooks.ports.js';

export interface WebhookInput {
  url: string;
  secret?: string;
  events: WebhookEvent[];
  enabled?: boolean;
}

const endpointView = (e: WebhookEndpoint) => ({
  id: e.id,
  url: e.url,
  events: e.events,
  enabled: e.enabled,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});

const deliveryView = (d: WebhookDelivery) => ({
  id: d.id,
  event: d.event,
  event_id: d.eventId,
  status: d.status,
  attempts: d.attemptLog,
  response_excerpt: d.responseExcerpt,
  created_at: d.createdAt.toISOString(),
  updated_at: d.updatedAt.toISOString(),
});

export type WebhookView = ReturnType<typeof endpointView>;
export type WebhookDeliveryView = ReturnType<typeof deliveryView>;

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
const missing = () => notFound('webhook', 'webhook_not_found');

export class WebhooksService {
  constructor(
    private readonly d: {
      repo: WebhookRepository;
      check: WebhookUrlCheck;
      deliveries: WebhookDeliveries;
      logger: Logger;
    },
  ) {}

  async list(): Promise<WebhookView[]> {
    return (await this.d.repo.list()).map(endpointView);
  }

  async create(input: WebhookInput): Promise<WebhookView & { secret: string }> {
    const url = await this.checkedUrl(input.url);
    const secret = input.secret ?? newSecret();
    const created = await this.d.repo.create({
      url,
      secret,
      events: unique(input.events),
      enabled: input.enabled ?? true,
    });
    this.d.deliveries.forget();
    this.d.logger.info({ event: 'webhook.created', webhook_id: created.id, events: created.events });
    return { ...endpointView(created), secret };
  }

  async update(id: string, patch: Partial<WebhookInput>): Promise<WebhookView> {
    if (!isUuid(id)) throw missing();
    const fields = {
      ...(patch.url !== undefined && { url: await this.checkedUrl(patch.url) }),
      ...(patch.secret !== undefined && { secret: patch.secret }),
      ...(patch.events !== undefined && { events: unique(patch.events) }),
      ...(patch.enabled !== undefined && { enabled: patch.enabled }),
    };
    const updated = await this.d.repo.update(id, fields);
    this.d.deliveries.forget();
    if (!updated) throw missing();
    return endpointView(updated);
  }

  async remove(id: string): Promise<void> {
    if (!isUuid(id) || !(await this.d.repo.delete(id))) throw missing();
    this.d.deliveries.forget();
  }

  /** the endpoint's last deliveries, newest first */
  async deliveries(id: string): Promise<{ items: WebhookDeliveryView[] }> {
    if (!isUuid(id) || !(await this.d.repo.get(id))) throw missing();
    return { items: (await this.d.repo.deliveries(id, WEBHOOK_DELIVERIES_SHOWN)).map(deliveryView) };
  }

  /** Sends the delivery again (the same body, freshly signed) through the queue. */
  async resend(id: string, deliveryId: string): Promise<WebhookDeliveryView> {
    const found = isUuid(id) && isUuid(deliveryId) ? await this.d.repo.delivery(deliveryId) : null;
    if (!found || found.endpoint.id !== id) throw notFound('webhook delivery', 'webhook_delivery_not_found');
    const pending = () => conflict('this delivery is waiting to be sent already', 'webhook_delivery_pending');
    if (found.delivery.status === 'pending' || found.delivery.status === 'retrying') throw pending();
    // the status first: the job may end before enqueue returns
    await this.d.repo.setStatus(deliveryId, 'pending');
    if (!(await this.d.deliveries.enqueue([deliveryId]))) throw pending();
    return deliveryView({ ...found.delivery, status: 'pending' });
  }

  private async checkedUrl(raw: string): Promise<string> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalid('url is not a valid URL', 'invalid_url', [{ path: '/url', message: 'not a URL' }]);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw invalid('url must be http or https', 'invalid_url', [{ path: '/url', message: 'http or https' }]);
    const refused = await this.d.check(url.href);
    if (refused)
      throw new AppError('Invalid', 'webhook_url_refused', `url refused: ${refused}`, [
        { path: '/url', message: refused },
      ]);
    return url.href;
  }
}

const unique = (events: WebhookEvent[]) => [...new Set(events)];
