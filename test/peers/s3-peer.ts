import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import aws4 from 'aws4';

/**
 * An S3-compatible server on loopback (path-style PUT/GET object). Every request must carry a valid
 * SigV4 signature for the given credentials, recomputed here from what arrived on the wire.
 */
export class S3Peer {
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();
  readonly rejected: string[] = [];
  private readonly server: Server;
  url = '';

  constructor(
    readonly bucket: string,
    private readonly creds: { accessKeyId: string; secretAccessKey: string },
    private readonly region = 'us-east-1',
  ) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const path = req.url ?? '/';
        if (!this.validSignature(req.method ?? 'GET', path, req.headers, body)) {
          this.rejected.push(`${req.method} ${path}`);
          res.writeHead(403, { 'content-type': 'application/xml' });
          return res.end('<Error><Code>SignatureDoesNotMatch</Code></Error>');
        }
        const prefix = `/${this.bucket}/`;
        if (!path.startsWith(prefix)) {
          res.writeHead(404);
          return res.end('<Error><Code>NoSuchBucket</Code></Error>');
        }
        const key = decodeURIComponent(path.slice(prefix.length));
        if (req.method === 'PUT') {
          this.objects.set(key, { body, contentType: String(req.headers['content-type'] ?? '') });
          res.writeHead(200, { etag: '"x"' });
          return res.end();
        }
        const obj = this.objects.get(key);
        if (!obj) {
          res.writeHead(404, { 'content-type': 'application/xml' });
          return res.end('<Error><Code>NoSuchKey</Code></Error>');
        }
        res.writeHead(200, { 'content-type': obj.contentType });
        res.end(obj.body);
      });
    });
  }

  private validSignature(
    method: string,
    path: string,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
  ): boolean {
    const given = headers.authorization;
    const date = headers['x-amz-date'];
    const sha = headers['x-amz-content-sha256'];
    if (typeof given !== 'string' || typeof date !== 'string' || typeof sha !== 'string') return false;
    const signed = /SignedHeaders=([^,]+)/.exec(given)?.[1]?.split(';') ?? [];
    const h: Record<string, string> = {};
    for (const name of signed) if (name !== 'host') h[name] = String(headers[name]);
    const opts = {
      host: String(headers.host),
      path,
      method,
      service: 's3',
      region: this.region,
      headers: h,
      ...(body.length ? { body } : {}),
    };
    aws4.sign(opts, this.creds);
    return (opts.headers as Record<string, string>).Authorization === given;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
