import { createHash } from 'node:crypto';
import aws4 from 'aws4';
import type { MediaStorage } from '../../application/reports/reports.ports.js';

export interface S3Options {
  /** e.g. https://s3.eu-central-1.amazonaws.com or http://minio:9000 (path-style requests) */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** public base of the bucket's objects; without it objects are served through /media */
  publicUrl: string | undefined;
  /** site root, for `/media/...` URLs */
  publicBaseUrl: string;
  timeoutMs?: number;
}

const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/** An S3-compatible bucket (AWS, MinIO, R2...), path-style, signed with SigV4. */
export class S3MediaStorage implements MediaStorage {
  private readonly base: URL;

  constructor(private readonly o: S3Options) {
    this.base = new URL(o.endpoint.replace(/\/+$/, ''));
  }

  private async request(method: 'GET' | 'PUT', key: string, body?: Buffer, contentType?: string) {
    const path = `${this.base.pathname.replace(/\/$/, '')}/${this.o.bucket}/${encodeKey(key)}`;
    const headers: Record<string, string> = {
      'x-amz-content-sha256': createHash('sha256')
        .update(body ?? '')
        .digest('hex'),
      ...(contentType ? { 'content-type': contentType } : {}),
    };
    const opts = {
      host: this.base.host,
      path,
      method,
      service: 's3',
      region: this.o.region,
      headers,
      ...(body ? { body } : {}),
    };
    if (this.o.accessKeyId && this.o.secretAccessKey)
      aws4.sign(opts, { accessKeyId: this.o.accessKeyId, secretAccessKey: this.o.secretAccessKey });
    return fetch(`${this.base.protocol}//${this.base.host}${path}`, {
      method,
      headers: opts.headers as Record<string, string>,
      body: body ? new Uint8Array(body) : undefined,
      signal: AbortSignal.timeout(this.o.timeoutMs ?? 30_000),
      redirect: 'error',
    });
  }

  async put(key: string, data: Buffer, contentType: string): Promise<string> {
    const res = await this.request('PUT', key, data, contentType);
    if (!res.ok) throw new Error(`S3 PUT ${key} failed with HTTP ${res.status}`);
    return this.o.publicUrl
      ? `${this.o.publicUrl.replace(/\/+$/, '')}/${encodeKey(key)}`
      : `${this.o.publicBaseUrl}/media/${encodeKey(key)}`;
  }

  async get(key: string) {
    const res = await this.request('GET', key);
    if (res.status === 404 || res.status === 403) return null;
    if (!res.ok) throw new Error(`S3 GET ${key} failed with HTTP ${res.status}`);
    return {
      data: Buffer.from(await res.arrayBuffer()),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    };
  }
}
