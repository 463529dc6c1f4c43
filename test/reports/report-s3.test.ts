import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReportEnv, REPORT_SITE, type ReportEnv } from '../helpers/report-env.js';
import { insertArticle, insertProvider, insertTopic, pngSize } from '../helpers/report-factories.js';
import { S3Peer } from '../peers/s3-peer.js';
import { S3MediaStorage } from '../../src/infrastructure/storage/s3-media-storage.js';
import { loadConfig } from '../../src/config.js';

const creds = { accessKeyId: 'AKIATEST', secretAccessKey: 'secret-test-key' };

describe('covers in an S3-compatible bucket', () => {
  const s3 = new S3Peer('covers-bucket', creds, 'eu-west-1');
  let env: ReportEnv;

  beforeAll(async () => {
    await s3.start();
    env = await startReportEnv('pglite', {
      S3_ENDPOINT: s3.url,
      S3_BUCKET: 'covers-bucket',
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: creds.accessKeyId,
      S3_SECRET_ACCESS_KEY: creds.secretAccessKey,
    });
  });
  afterAll(async () => {
    await env?.close();
    await s3.stop();
  });

  it('stores the cover in the bucket (signed) and serves it at /media', async () => {
    const db = env.t.container.database.db;
    await insertProvider(db, { baseUrl: env.llm.baseUrl });
    const topic = await insertTopic(db);
    await insertArticle(db, topic.id, { publishedAt: new Date('2026-11-10T10:00:00Z') });
    const res = await env.runJob({ topic_id: topic.id, week_start: '2026-11-09' });
    expect(res.json().topics[0].status).toBe('created');

    const key = `covers/${topic.id}/2026-11-09.png`;
    expect(s3.rejected).toEqual([]);
    expect(s3.objects.get(key)?.contentType).toBe('image/png');
    expect(pngSize(s3.objects.get(key)!.body)).toEqual({ width: 1600, height: 900 });
    const report = (await env.t.app.inject({ url: `/weekly-reports/latest?topic_id=${topic.id}` })).json();
    expect(report.cover_image_url).toBe(`${REPORT_SITE}/media/${key}`);
    const served = await env.t.app.inject({ url: `/media/${key}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(s3.objects.get(key)!.body)).toBe(true);
  });

  it('links the bucket public URL when S3_PUBLIC_URL is set, and refuses wrong credentials', async () => {
    const base = {
      endpoint: s3.url,
      bucket: 'covers-bucket',
      region: 'eu-west-1',
      publicBaseUrl: REPORT_SITE,
    };
    const storage = new S3MediaStorage({ ...base, ...creds, publicUrl: 'https://cdn.example.test/covers/' });
    expect(await storage.put('a/b.png', Buffer.from('png'), 'image/png')).toBe(
      'https://cdn.example.test/covers/a/b.png',
    );
    const wrong = new S3MediaStorage({
      ...base,
      accessKeyId: 'AKIATEST',
      secretAccessKey: 'nope',
      publicUrl: undefined,
    });
    await expect(wrong.put('a/c.png', Buffer.from('png'), 'image/png')).rejects.toThrow(/HTTP 403/);
    expect(s3.objects.has('a/c.png')).toBe(false);
  });

  it('refuses an incomplete S3 configuration at start', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(
      /S3_BUCKET: required[\s\S]*set both or neither/,
    );
  });
});
