/**
 * The span wrappers (spec: behaviour of tracing 8). They decorate ports, stages and event handlers
 * at wiring time; application code never imports them (a dependency-cruiser rule checks it).
 * The active span travels in a slot of the process's execution context (beside the correlation id,
 * one AsyncLocalStorage for both), so no global OTel state is used.
 */
import {
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { FlowScope } from '../../application/pipeline/event-bus.js';
import { contextSlot } from '../../application/shared/context.js';
import type { PipelineEvents } from '../../application/pipeline/pipeline.events.js';
import { contextOf } from './job-trace.js';

export class TraceScope {
  private readonly slot = contextSlot<Context>('otel.context');
  constructor(readonly tracer: Tracer) {}

  active(): Context {
    return this.slot.get() ?? ROOT_CONTEXT;
  }

  /** runs fn inside a new span (a root span when `root`), ending it when fn settles */
  async inSpan<R>(
    name: string,
    opts: { root?: boolean; attributes?: Attributes; parent?: Context },
    fn: (span: Span) => Promise<R>,
  ): Promise<R> {
    const parent = opts.root ? ROOT_CONTEXT : (opts.parent ?? this.active());
    const span = this.tracer.startSpan(
      name,
      { attributes: opts.attributes, root: opts.root, startTime: now() },
      parent,
    );
    try {
      return await this.slot.run(trace.setSpan(parent, span), () => fn(span));
    } catch (err) {
      markError(span, err);
      throw err;
    } finally {
      span.end(now());
    }
  }
}

/**
 * Start and end on one sub-millisecond clock: the SDK starts spans at Date.now() (whole ms) but
 * ends them on the performance clock, so back-to-back sibling spans would seem to overlap.
 */
const now = (): number => performance.timeOrigin + performance.now();

export function markError(span: Span, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  span.recordException(e);
  span.setStatus({ code: SpanStatusCode.ERROR, message: e.message });
}

export interface SpanOptions<A extends unknown[], R> {
  root?: boolean;
  /** attributes known when the call starts */
  attributes?: (...args: A) => Attributes;
  /** an ERROR status decided from the arguments (failure-event handlers) or the result */
  errorOf?: (result: R, ...args: A) => string | null;
}

/** Wraps an async function in a span named `name`. A throw sets ERROR status with its message. */
export function withSpan<A extends unknown[], R>(
  scope: TraceScope,
  name: string,
  fn: (...args: A) => Promise<R>,
  opts: SpanOptions<A, R> = {},
): (...args: A) => Promise<R> {
  return (...args: A) =>
    scope.inSpan(name, { root: opts.root, attributes: opts.attributes?.(...args) }, async (span) => {
      const result = await fn(...args);
      const error = opts.errorOf?.(result, ...args);
      if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
      return result;
    });
}

/** Like withSpan, with attributes known only once the call has finished (counts of a stage). */
export function withSpanDeferred<A extends unknown[], R>(
  scope: TraceScope,
  name: string,
  fn: (...args: A) => Promise<R>,
  attributes: (result: R, ...args: A) => Attributes,
): (...args: A) => Promise<R> {
  return (...args: A) =>
    scope.inSpan(name, {}, async (span) => {
      const result = await fn(...args);
      span.setAttributes(attributes(result, ...args));
      return result;
    });
}

/**
 * The bus's flow scope: an ArticleScrapedEvent opens the article.pipeline span, and every handler
 * span of that article's flow becomes its child (handlers run one after the other, so siblings).
 * The event comes from a job whose `traceparent` names the run's span: that is the parent.
 */
export function withArticlePipelineSpan(scope: TraceScope): FlowScope<PipelineEvents> {
  return (event, run) => {
    if (event.name !== 'article.scraped') return run();
    const e = event.payload as PipelineEvents['article.scraped'];
    return scope.inSpan(
      'article.pipeline',
      {
        parent: contextOf(e.traceparent),
        attributes: {
          'article.url': e.url,
          'article.source': e.source,
          'article.topic_id': e.topicId,
          'article.id': e.articleId,
        },
      },
      () => run(),
    );
  };
}
