import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  /** the body's bytes (binary protocols such as OTLP/protobuf) */
  raw: Buffer;
  json(): unknown;
}

export type PeerHandler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/**
 * A real HTTP server on loopback: the base of every protocol peer in the tests (LLM, embedding,
 * citation APIs, feeds, Telegram, Loki/Tempo/Prometheus). It records every request it receives.
 */
export class HttpPeer {
  readonly requests: RecordedRequest[] = [];
  private server: Server;
  url = '';

  constructor(private handler: PeerHandler) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const u = new URL(req.url ?? '/', 'http://peer');
        const raw = Buffer.concat(chunks);
        const body = raw.toString('utf8');
        const rec: RecordedRequest = {
          method: req.method ?? 'GET',
          path: u.pathname,
          query: u.searchParams,
          headers: req.headers,
          body,
          raw,
          json: () => JSON.parse(body),
        };
        this.requests.push(rec);
        Promise.resolve(this.handler(rec, res)).catch((err: unknown) => {
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(String(err));
        });
      });
    });
  }

  setHandler(handler: PeerHandler): void {
    this.handler = handler;
  }

  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
