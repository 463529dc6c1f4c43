import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/db.js';
import { OutboundGuard } from '../../src/infrastructure/http/outbound-guard.js';
import {
  HttpWebhookSender,
  outboundUrlCheck,
} from '../../src/infrastructure/webhooks/http-webhook-sender.js';
import { isRetryable } from '../../src/domain/webhooks.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { WebhookReceiver } from './receiver.js';

/**
 * The address is judged again where each delivery connects: a name that resolved to an allowed
 * address when the URL was saved and resolves to a private one later is refused, and so is an
 * address the outbound rules of the delivering process do not allow.
 */
describe('webhook deliveries and the outbound rules', () => {
  let receiver: WebhookReceiver;
  let receiver2: WebhookReceiver;
  beforeAll(async () => {
    receiver = await new WebhookReceiver((path) => (path === '/redirect' ? 302 : 200)).start('127.0.0.1');
    receiver2 = await new WebhookReceiver().start('127.0.0.2');
  });
  afterAll(async () => {
    await Promise.all([receiver.stop(), receiver2.stop()]);
  });

  it('refuses at delivery a host whose address changed to 169.254.169.254 or 127.0.0.2 since it was saved', async () => {
    const port = new URL(receiver.url).port;
    const url = `http://hooks.example.test:${port}/hook`;
    let answer = '127.0.0.1';
    const guard = new OutboundGuard(['127.0.0.1'], async () => [answer]);
    const sender = new HttpWebhookSender(guard);
    try {
      expect(await outboundUrlCheck(guard)(url)).toBeNull();
      const ok = await sender.post(url, { 'content-type': 'application/json' }, '{}');
      expect(ok).toMatchObject({ statusCode: 200, error: null });
      const before = receiver.received.length;
      for (const moved of ['169.254.169.254', '127.0.0.2']) {
        answer = moved;
        expect(await outboundUrlCheck(guard)(url)).toMatch(/refused/);
        // a new connection: the kept-alive one to the old address must not be reused
        await sender.close();
        const refused = await new HttpWebhookSender(guard).post(url, {}, '{}');
        expect(refused).toMatchObject({ statusCode: null, refused: true });
        expect(refused.error).toContain(moved);
        expect(isRetryable(refused)).toBe(false);
      }
      expect(receiver.received.length).toBe(before);
      expect(receiver2.received).toHaveLength(0);
    } finally {
      await sender.close();
    }
  });

  it('does not follow a redirect and bounds an attempt in time', async () => {
    const guard = new OutboundGuard(['127.0.0.1']);
    const redirect = await new HttpWebhookSender(guard).post(`${receiver.url}/redirect`, {}, '{}');
    expect(redirect).toMatchObject({ statusCode: 302 });
    expect(redirect.error).toMatch(/not followed/);
    expect(isRetryable(redirect)).toBe(false);

    const silent: Server = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const started = Date.now();
      const slow = await new HttpWebhookSender(guard, 300).post(
        `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
        {},
        '{}',
      );
      expect(slow).toMatchObject({ statusCode: null, error: 'timed out after 300 ms' });
      expect(Date.now() - started).toBeLessThan(3000);
      expect(isRetryable(slow)).toBe(true);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  describe('a process whose rules do not allow the saved address', () => {
    let database: Database;
    let saver: TestApp;
    let deliverer: TestApp;
    beforeAll(async () => {
      database = await createTestDatabase();
      // saved where 127.0.0.0/8 is allowed, delivered where only 127.0.0.1 is
      saver = await buildTestApp({ database, env: { FETCH_ALLOWED_HOSTS: '127.0.0.0/8' } });
      deliverer = await buildTestApp({ database, env: { FETCH_ALLOWED_HOSTS: '127.0.0.1' } });
    });
    afterAll(async () => {
      await deliverer.close();
      await saver.close();
      await database.close();
    });

    it('records the delivery as failed, refused, without retrying it', async () => {
      const admin = await saver.login('admin');
      const made = await saver.app.inject({
        method: 'POST',
        url: '/admin/webhooks',
        headers: admin.headers,
        payload: { url: `${receiver2.url}/hook`, events: ['run.failed'] },
      });
      expect(made.statusCode, made.body).toBe(201);
      const { id } = made.json<{ id: string }>();
      // the other process refuses the same URL when saved
      const again = await deliverer.app.inject({
        method: 'POST',
        url: '/admin/webhooks',
        headers: (await deliverer.login('admin')).headers,
        payload: { url: `${receiver2.url}/hook`, events: ['run.failed'] },
      });
      expect(again.json()).toMatchObject({ error: { code: 'webhook_url_refused' } });

      await deliverer.container.services.runs.runToEnd('metrics', 'test', () =>
        Promise.reject(new Error('x')),
      );
      const end = Date.now() + 20_000;
      let items: { status: string; attempts: { error: string | null; status_code: number | null }[] }[] = [];
      while (Date.now() < end) {
        const res = await deliverer.app.inject({
          method: 'GET',
          url: `/admin/webhooks/${id}/deliveries`,
          headers: (await deliverer.login('admin')).headers,
        });
        items = res.json<{ items: typeof items }>().items;
        if (items[0]?.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(items).toHaveLength(1);
      expect(items[0]!.status).toBe('failed');
      expect(items[0]!.attempts).toHaveLength(1);
      expect(items[0]!.attempts[0]!.status_code).toBeNull();
      expect(items[0]!.attempts[0]!.error).toMatch(/refused to connect to 127\.0\.0\.2/);
      expect(receiver2.received).toHaveLength(0);
    });
  });
});
