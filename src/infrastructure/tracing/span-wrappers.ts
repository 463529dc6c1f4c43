/**
 * The span wrappers (docs/decisions/0042-tracing.md). They decorate ports, stages and event handlers
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
import type { ArticleFlow } from '../../application/pipeline/article-flow.js';
import { contextSlot } from '../../application/shared/context.js';
import { contextOf } from './job-trace.js';

export class TraceScope {
  private readonly slot = contextSlot<Context>('otel.context');
  /** the context of the root span the active one descends from (a run's `scraper.run`) */
  private readonly rootSlot = contextSlot<Context>('otel.root');
  constructor(readonly tracer: Tracer) {}

  active(): Context {
    return this.slot.get() ?? ROOT_CONTEXT;
  }

  /** the root span's context: what a run's jobs continue, whichever stage sends them */
  root(): Context {
    return this.rootSlot.get() ?? this.active();
  }

  /** runs fn with `parent` as the active context, without a span of its own */
  within<R>(parent: Context, fn: () => Promise<R>): Promise<R> {
    return this.slot.run(parent, fn);
  }

  /**
   * Runs fn inside a new span (a root span when `root`), ending it when fn settles. A `leaf` span
   * is not made the active one: what fn calls sees its parent as active (no context is entered,
   * the cheaper way for spans that have no children, such as an article's steps).
   */
  async inSpan<R>(
    name: string,
    opts: { root?: boolean; leaf?: boolean; attributes?: Attributes; parent?: Context },
    fn: (span: Span) => Promise<R>,
  ): Promise<R> {
    const parent = opts.root ? ROOT_CONTEXT : (opts.parent ?? this.active());
    const span = this.tracer.startSpan(
      name,
      { attributes: opts.attributes, root: opts.root, startTime: now() },
      parent,
    );
    try {
      if (opts.leaf) return await fn(span);
      const ctx = trace.setSpan(parent, span);
      return opts.root
        ? await this.rootSlot.run(ctx, () => this.slot.run(ctx, () => fn(span)))
        : await this.slot.run(ctx, () => fn(span));
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
 * ends them on the performance clock, so back-to-back sibling spans would seem to overlap. Given
 * as epoch milliseconds with their fraction, which the tracer keeps as a number until the span is
 * encoded (light-tracer.ts).
 */
const ORIGIN_MS = performance.timeOrigin;
const now = (): number => ORIGIN_MS + performance.now();

export function markError(span: Span, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  span.recordException(e);
  span.setStatus({ code: SpanStatusCode.ERROR, message: e.message });
}

export interface SpanOptions<A extends unknown[], R> {
  root?: boolean;
  /** a span with no children: not made the active one (TraceScope.inSpan) */
  leaf?: boolean;
  /** attributes known when the call starts */
  attributes?: (...args: A) => Attributes;
  /** attributes known once the call has finished (the counts of a stage) */
  after?: (result: R, ...args: A) => Attributes;
  /** an ERROR status decided from the arguments (failure-event handlers) or the result */
  errorOf?: (result: R, ...args: A) => string | null;
}

/** what a finished call adds to its span: the attributes known after it, an ERROR status judged from it */
function settle<A extends unknown[], R>(span: Span, opts: SpanOptions<A, R>, result: R, args: A): void {
  if (opts.after) span.setAttributes(opts.after(result, ...args));
  const error = opts.errorOf?.(result, ...args);
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
}

/** Wraps an async function in a span named `name`. A throw sets ERROR status with its message. */
export function withSpan<A extends unknown[], R>(
  scope: TraceScope,
  name: string,
  fn: (...args: A) => Promise<R>,
  opts: SpanOptions<A, R> = {},
): (...args: A) => Promise<R> {
  if (opts.leaf && !opts.root) {
    // what inSpan does for a leaf, in one async function instead of three nested ones: the span
    // wrapped around each of an article's steps is the commonest span the service makes
    const { tracer } = scope;
    return async (...args: A) => {
      const span = tracer.startSpan(
        name,
        { attributes: opts.attributes?.(...args), startTime: now() },
        scope.active(),
      );
      try {
        const result = await fn(...args);
        settle(span, opts, result, args);
        return result;
      } catch (err) {
        markError(span, err);
        throw err;
      } finally {
        span.end(now());
      }
    };
  }
  return (...args: A) =>
    scope.inSpan(
      name,
      { root: opts.root, leaf: opts.leaf, attributes: opts.attributes?.(...args) },
      async (span) => {
        const result = await fn(...args);
        settle(span, opts, result, args);
        return result;
      },
    );
}

/**
 * An article's flow in its `article.pipeline` span: every step span of that article becomes its
 * child (the steps run one after the other, so siblings). The job's `traceparent` names the run's
 * span: that is the parent, in whichever process the job runs.
 */
export function withArticlePipelineSpan(scope: TraceScope, flow: ArticleFlow): ArticleFlow {
  return (ref, article, opts) =>
    scope.inSpan(
      'article.pipeline',
      {
        parent: contextOf(ref.traceparent),
        attributes: {
          'article.url': ref.url,
          'article.source': ref.source,
          'article.topic_id': ref.topicId,
          'article.id': ref.articleId,
        },
      },
      () => flow(ref, article, opts),
    );
}
