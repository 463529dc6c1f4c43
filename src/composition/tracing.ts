import type { Attributes } from '@opentelemetry/api';
import type { AnyRegistration } from '../application/pipeline/event-bus.js';
import type { ArticleFailure, PipelineEvents } from '../application/pipeline/pipeline.events.js';
import type { PipelineStages } from '../application/pipeline/pipeline.stages.js';
import type { RunExecutor } from '../application/pipeline/scraper.service.js';
import {
  createTelemetry,
  type Telemetry,
  type TelemetryOptions,
} from '../infrastructure/tracing/telemetry.js';
import { withSpan, withSpanDeferred, type TraceScope } from '../infrastructure/tracing/span-wrappers.js';
import type { WiringContext } from './context.js';

/**
 * Telemetry of the process: built from MONITOR_OTLP_*, fed every log line, flushed on close
 * (SIGTERM/SIGINT and the CLI close the container) and when the event loop empties.
 */
export async function setupTelemetry(ctx: WiringContext, opts?: TelemetryOptions): Promise<Telemetry> {
  const telemetry = await createTelemetry(
    {
      serviceName: ctx.config.serviceName,
      deploymentEnvironment: ctx.config.deploymentEnvironment,
      otlpEndpoint: ctx.config.monitor.otlpEndpoint,
      otlpUser: ctx.config.monitor.otlpUser,
      apiKey: ctx.config.monitor.apiKey,
      prometheus: ctx.config.prometheus.enabled,
    },
    ctx.logger,
    { exportTimeoutMs: ctx.config.monitor.otlpTimeoutMs, ...opts },
  );
  if (!telemetry.enabled) return telemetry;
  const detach = telemetry.logSink ? ctx.logTap.attach(telemetry.logSink) : () => undefined;
  const onBeforeExit = () => void telemetry.shutdown();
  process.once('beforeExit', onBeforeExit);
  ctx.onClose(async () => {
    process.off('beforeExit', onBeforeExit);
    await telemetry.shutdown();
    detach();
  });
  return telemetry;
}

/** scraper.run: a root span per run (spec: span tree). */
export const traceRun = (scope: TraceScope, execute: RunExecutor): RunExecutor =>
  withSpan(scope, 'scraper.run', execute, {
    root: true,
    attributes: (run) => ({ 'run.id': run.id, 'run.correlation_id': run.correlationId }),
    errorOf: (outcome) => (outcome.status === 'failed' ? (outcome.error ?? 'run failed') : null),
  });

/** The four pipeline child spans with their counts. */
export function traceStages(scope: TraceScope, s: PipelineStages): PipelineStages {
  return {
    discover: withSpanDeferred(scope, 'pipeline.discover', s.discover, (r): Attributes => ({
      'sources.count': r.sources.length,
      'articles.discovered': r.entries.length,
    })),
    fetch: withSpanDeferred(scope, 'pipeline.fetch', s.fetch, (r, _run, discovery): Attributes => ({
      'articles.to_fetch': discovery.entries.length,
      'articles.fetched': r.length,
    })),
    dedup: withSpanDeferred(scope, 'pipeline.dedup', s.dedup, (r, _run, candidates): Attributes => ({
      'articles.before_dedup': candidates.length,
      'articles.after_dedup': r.fresh.length,
      'articles.skipped': r.skipped.length,
    })),
    publish: withSpanDeferred(scope, 'pipeline.publish_articles', s.publish, (r): Attributes => ({
      'articles.published': r.published,
    })),
  };
}

/** A span per handler, named after it; failure-event handlers always end with ERROR status. */
export function traceHandlers(
  scope: TraceScope,
  registrations: AnyRegistration<PipelineEvents>[],
): AnyRegistration<PipelineEvents>[] {
  return registrations.map((r) => ({
    ...r,
    handle: withSpan(scope, r.name, r.handle, {
      errorOf: r.failure ? (_result, payload) => (payload as ArticleFailure).error : undefined,
    }),
  }));
}
