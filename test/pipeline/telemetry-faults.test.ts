import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtlpReceiver } from '../peers/otlp-receiver.js';
import { HttpPeer } from '../peers/http-peer.js';
import { buildLoggedContainer, makeItem, rssFeed, startFeedServer } from '../helpers/pipeline-factories.js';

const telemetryLines = (lines: Record<string, unknown>[]) =>
  lines.filter(
    (l) =>
      /telemetry|tracing|otlp|export/i.test(String(l.event ?? '')) || /otlp|trac/i.test(String(l.msg ?? '')),
  );

describe('tracing faults never reach the run', () => {
  let feeds: HttpPeer;
  beforeAll(async () => {
    feeds = await startFeedServer({ '/feed.xml': rssFeed([makeItem(), makeItem(), makeItem()]) });
  });
  afterAll(() => feeds.stop());

  it('without MONITOR_* variables the run completes and nothing about tracing is logged', async () => {
    const h = await buildLoggedContainer({});
    try {
      await h.seed([{ name: 'Feed', url: `${feeds.url}/feed.xml` }]);
      const run = await h.container.services.scraper.runNow('test');
      expect(run.status).toBe('completed');
      expect(run.counts).toMatchObject({ published: 3, analyzed: 3, translation_skipped: 3 });
      expect(telemetryLines(h.lines)).toEqual([]);
      expect(h.lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
      // the stage logs the dashboard reads are there all the same
      expect(h.lines.filter((l) => l.event === 'pipeline.stage.completed').map((l) => l.stage)).toEqual([
        'discover',
        'fetch',
        'dedup',
        'publish',
      ]);
      expect(h.lines.find((l) => l.event === 'scraper.run.completed')).toMatchObject({
        run_id: run.id,
        status: 'completed',
      });
    } finally {
      await h.close();
    }
  });

  it('when the receiver goes down mid-run the run completes and ONE warning is logged', async () => {
    const receiver = await new OtlpReceiver().start();
    let stopped: Promise<void> | undefined;
    // the receiver dies while the feed is being read: every export after that fails
    const slowFeed = await new HttpPeer((_req, res) => {
      stopped ??= receiver.stop();
      void stopped.then(() =>
        res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rssFeed([makeItem(), makeItem()])),
      );
    }).start();
    const h = await buildLoggedContainer({
      MONITOR_OTLP_USER: 'u',
      MONITOR_API_KEY: 'k',
      MONITOR_OTLP_ENDPOINT: receiver.url,
      MONITOR_OTLP_TIMEOUT_MS: '500',
    });
    try {
      await h.seed([{ name: 'Feed', url: slowFeed.url + '/feed.xml' }]);
      const run = await h.container.services.scraper.runNow('test');
      expect(run.status).toBe('completed');
      expect(run.counts).toMatchObject({ published: 2, completed: 2 });
      await h.container.close(); // flush: every export fails now
      const warnings = h.lines.filter((l) => l.event === 'telemetry.export_failed');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.level).toBe('warn');
      expect(h.lines.filter((l) => l.level === 'error')).toEqual([]);
    } finally {
      await h.close();
      await slowFeed.stop();
    }
  });

  it('ships the structured logs over OTLP with the traces’ resource attributes', async () => {
    const receiver = await new OtlpReceiver().start();
    const h = await buildLoggedContainer({
      MONITOR_OTLP_USER: 'u',
      MONITOR_API_KEY: 'k',
      MONITOR_OTLP_ENDPOINT: receiver.url,
      DEPLOYMENT_ENVIRONMENT: 'production',
    });
    try {
      await h.seed([{ name: 'Feed', url: `${feeds.url}/feed.xml` }]);
      const run = await h.container.services.scraper.runNow('test');
      await h.container.close();
      const completed = receiver.logs.find((l) => l.attributes.event === 'scraper.run.completed');
      expect(completed).toBeDefined();
      expect(completed!.resource).toMatchObject({
        'service.name': 'article-intel',
        'deployment.environment': 'production',
      });
      expect(completed!.attributes).toMatchObject({ run_id: run.id, level: 'info' });
      expect(JSON.parse(String(completed!.body))).toMatchObject({
        event: 'scraper.run.completed',
        run_id: run.id,
      });
      const stages = receiver.logs.filter((l) => l.attributes.event === 'pipeline.stage.completed');
      expect(stages.map((l) => l.attributes.stage)).toEqual(['discover', 'fetch', 'dedup', 'publish']);
      expect(stages.every((l) => typeof l.attributes.duration_ms === 'number')).toBe(true);
      expect(receiver.spans.find((s) => s.name === 'scraper.run')!.resource['deployment.environment']).toBe(
        'production',
      );
      expect(receiver.metrics.map((m) => m.name)).toContain('scraper_run_duration_seconds');
    } finally {
      await h.close();
      await receiver.stop();
    }
  });
});
