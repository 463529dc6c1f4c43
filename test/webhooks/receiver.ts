import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  id: string;
  timestamp: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** the signature checked against the path's secret with node:crypto */
  verified: boolean;
  json: { id: string; event: string; created_at: string; data: Record<string, unknown> };
}

/**
 * A webhook receiver on a loopback address: it checks every request's signature the way the README
 * tells receivers to (HMAC-SHA256 of `<timestamp>.<raw body>` with the endpoint's secret) and
 * answers what `answer` says for the path and the attempt of that event id.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  /** the secret of each path, set once the endpoint has been created */
  readonly secrets = new Map<string, string>();
  private server: Server;
  url = '';

  constructor(private readonly answer: (path: string, attempt: number) => number = () => 200) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const timestamp = Number(req.headers['x-webhook-timestamp']);
        const given = String(req.headers['x-webhook-signature'] ?? '');
        const secret = this.secrets.get(path) ?? '';
        const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
        const verified =
          given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
        const id = String(req.headers['x-webhook-id'] ?? '');
        this.received.push({
          path,
          id,
          timestamp,
          body,
          headers: req.headers,
          verified,
          json: JSON.parse(body) as Received['json'],
        });
        const attempt = this.received.filter((r) => r.path === path && r.id === id).length;
        res.writeHead(this.answer(path, attempt), { 'content-type': 'text/plain' }).end('x'.repeat(10_000));
      });
    });
  }

  async start(host = '127.0.0.1'): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
