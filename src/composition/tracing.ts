import type { Attributes } from '@opentelemetry/api';
import { FAILURE_STEPS, type ArticleSteps } from '../application/pipeline/article-flow.js';
import type { CloseRun, RunEndSteps } from '../application/pipeline/run-end.js';
import type { PipelineStages } from '../application/pipeline/pipeline.stages.js';
import type { RunExecutor } from '../application/pipeline/scraper.service.js';
import {
  createTelemetry,
  type Telemetry,
  type TelemetryOptions,
} from '../infrastructure/tracing/telemetry.js';
import { contextOf } from '../infrastructure/tracing/job-trace.js';
import { withSpan, type TraceScope } from '../infrastructure/tracing/span-wrappers.js';
import type { WiringContext } from './context.js';
import type { AssistantToolName, AssistantTools } from '../application/assistant/assistant-tools.js';
import type { Principal } from '../domain/users.js';

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

/** scraper.run: a root span per run (docs/architecture.md, "The span tree of a run"). */
export const traceRun = (scope: TraceScope, execute: RunExecutor): RunExecutor =>
  withSpan(scope, 'scraper.run', execute, {
    root: true,
    attributes: (run) => ({ 'run.id': run.id, 'run.correlation_id': run.correlationId }),
    errorOf: (outcome) => (outcome.status === 'failed' ? (outcome.error ?? 'run failed') : null),
  });

/** The four pipeline child spans with their counts. */
export function traceStages(scope: TraceScope, s: PipelineStages): PipelineStages {
  return {
    discover: withSpan(scope, 'pipeline.discover', s.discover, {
      after: (r): Attributes => ({
        'sources.count': r.sources.length,
        'articles.discovered': r.entries.length,
      }),
    }),
    fetch: withSpan(scope, 'pipeline.fetch', s.fetch, {
      after: (r, _run, discovery): Attributes => ({
        'articles.to_fetch': discovery.entries.length,
        'articles.fetched': r.length,
      }),
    }),
    dedup: withSpan(scope, 'pipeline.dedup', s.dedup, {
      after: (r, _run, candidates): Attributes => ({
        'articles.before_dedup': candidates.length,
        'articles.after_dedup': r.fresh.length,
        'articles.skipped': r.skipped.length,
      }),
    }),
    publish: withSpan(scope, 'pipeline.publish_articles', s.publish, {
      after: (r): Attributes => ({ 'articles.published': r.published }),
    }),
  };
}

/**
 * A span per article step, named after its event (`article.processed.handle`); the failure steps'
 * spans always end with ERROR status and the failure's message.
 */
export function traceArticleSteps(scope: TraceScope, steps: ArticleSteps): ArticleSteps {
  const traced = { ...steps };
  const wrap = <K extends keyof ArticleSteps>(name: K) => {
    const step = steps[name] as (...args: unknown[]) => Promise<unknown>;
    const failure = (FAILURE_STEPS as readonly string[]).includes(name);
    traced[name] = withSpan(scope, `${name}.handle`, step, {
      // a step calls nothing traced: its span is a leaf, no context is entered for it
      leaf: true,
      errorOf: failure ? (_r, _a, f) => (f as { error: string }).error : undefined,
    }) as ArticleSteps[K];
  };
  for (const name of Object.keys(steps) as (keyof ArticleSteps)[]) wrap(name);
  return traced;
}

/** `scraper.pipeline_completed.handle` and `.notify`, children of the run's span. */
export const traceRunEndSteps = (scope: TraceScope, steps: RunEndSteps): RunEndSteps => ({
  handle: withSpan(scope, 'scraper.pipeline_completed.handle', (e) => steps.handle(e)),
  notify: withSpan(scope, 'scraper.pipeline_completed.notify', (e) => steps.notify(e)),
});

/** A run ended by a job of another span (or process) ends in the run's trace: its traceparent. */
export const traceCloseRun =
  (scope: TraceScope, close: CloseRun): CloseRun =>
  (c) => {
    const parent = contextOf(c.traceparent);
    return parent ? scope.within(parent, () => close(c)) : close(c);
  };

/**
 * A root span per MCP tool call, `tools/call <tool>` (the OpenTelemetry convention for MCP), with
 * the caller's account and token scope; a refused or failed call ends with ERROR status.
 */
export function traceAssistantTools(scope: TraceScope, tools: AssistantTools): AssistantTools {
  const traced = { ...tools };
  for (const name of Object.keys(tools) as AssistantToolName[]) {
    const tool = tools[name] as (caller: Principal, input: unknown) => Promise<unknown>;
    (traced as Record<string, unknown>)[name] = withSpan(scope, `tools/call ${name}`, tool, {
      root: true,
      attributes: (caller): Attributes => ({
        'mcp.method.name': 'tools/call',
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
        'enduser.id': caller.userId,
        'auth.token.scope': caller.token?.scope ?? 'none',
      }),
    });
  }
  return traced;
}
