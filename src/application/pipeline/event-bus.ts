import type { Logger } from '../shared/ports.js';

export interface QueuedEvent<M, K extends keyof M = keyof M> {
  name: K;
  payload: M[K];
}

/** How a handler publishes: the event is queued and replayed after the handler returns. */
export type Emit<M> = <K extends keyof M>(name: K, payload: M[K]) => void;

export interface HandlerRegistration<M, K extends keyof M = keyof M> {
  event: K;
  /** the handler's name (`article.processed.handle`); tracing names the handler span after it */
  name: string;
  /** handlers of failure events: their spans always carry ERROR status */
  failure: boolean;
  handle(payload: M[K], emit: Emit<M>): Promise<void>;
  /** the failure event published when the handler throws */
  onError?(payload: M[K], err: Error): QueuedEvent<M>;
}

// The list holds registrations of different events: erase K once, at registration.
export type AnyRegistration<M> = HandlerRegistration<M, keyof M>;

export function on<M, K extends keyof M>(
  event: K,
  name: string,
  handle: (payload: M[K], emit: Emit<M>) => Promise<void>,
  opts: { failure?: boolean; onError?: (payload: M[K], err: Error) => QueuedEvent<M> } = {},
): AnyRegistration<M> {
  const registration: HandlerRegistration<M, K> = {
    event,
    name,
    handle,
    failure: opts.failure ?? false,
    onError: opts.onError,
  };
  return registration as unknown as AnyRegistration<M>;
}

/** Runs one top-level event and everything its handlers publish (e.g. one article's flow). */
export type FlowScope<M> = (event: QueuedEvent<M>, run: () => Promise<void>) => Promise<void>;

export interface EventBusOptions<M> {
  logger: Logger;
  /** top-level events processed at once */
  concurrency?: number;
  /** wraps each top-level flow (the wiring puts the article.pipeline span here) */
  flowScope?: FlowScope<M>;
}

/**
 * A typed in-process bus. A handler's own publishes are queued and replayed after the handler has
 * returned, so handlers of one flow run one after the other and never nest. A handler that throws
 * publishes its failure event instead; nothing a handler does stops the other flows.
 */
export class EventBus<M> {
  private readonly byEvent = new Map<keyof M, AnyRegistration<M>[]>();
  private readonly flowScope: FlowScope<M>;

  constructor(
    registrations: AnyRegistration<M>[],
    private readonly opts: EventBusOptions<M>,
  ) {
    for (const r of registrations) {
      const list = this.byEvent.get(r.event) ?? [];
      list.push(r);
      this.byEvent.set(r.event, list);
    }
    this.flowScope = opts.flowScope ?? ((_e, run) => run());
  }

  /** A batch collects top-level publishes; drain() runs their flows, `concurrency` at a time. */
  batch(): EventBatch<M> {
    const queued: QueuedEvent<M>[] = [];
    return {
      publish: (name, payload) => void queued.push({ name, payload } as QueuedEvent<M>),
      size: () => queued.length,
      drain: (onFlowDone) => this.dispatch(queued.splice(0), onFlowDone),
    };
  }

  /**
   * Runs one top-level event's flow (one article's job). A handler error for which `retryable`
   * answers true aborts the flow with a RetryableFlowError (the job is tried again later, and every
   * handler checks what is already done); any other error publishes the handler's failure event, as
   * in a batch. Answers the failure events the flow published.
   */
  async run<K extends keyof M>(
    name: K,
    payload: M[K],
    opts: { retryable?: (err: Error) => boolean } = {},
  ): Promise<{ failures: QueuedEvent<M>[] }> {
    const failures: QueuedEvent<M>[] = [];
    const event = { name, payload } as QueuedEvent<M>;
    await this.flowScope(event, () => this.runFlow(event, { ...opts, failures }));
    return { failures };
  }

  private async dispatch(events: QueuedEvent<M>[], onFlowDone?: () => void): Promise<void> {
    let next = 0;
    const worker = async () => {
      while (next < events.length) {
        const event = events[next++]!;
        try {
          await this.flowScope(event, () => this.runFlow(event));
        } catch (err) {
          this.opts.logger.error({ event: 'pipeline.flow.failed', err, pipeline_event: String(event.name) });
        }
        onFlowDone?.();
      }
    };
    const n = Math.max(1, Math.min(this.opts.concurrency ?? 8, events.length));
    await Promise.all(Array.from({ length: n }, worker));
  }

  private async runFlow(
    first: QueuedEvent<M>,
    opts: { retryable?: (err: Error) => boolean; failures?: QueuedEvent<M>[] } = {},
  ): Promise<void> {
    const queue: QueuedEvent<M>[] = [first];
    while (queue.length) {
      const current = queue.shift()!;
      for (const h of this.byEvent.get(current.name) ?? []) {
        const emitted: QueuedEvent<M>[] = [];
        const emit: Emit<M> = (name, payload) => void emitted.push({ name, payload } as QueuedEvent<M>);
        try {
          await h.handle(current.payload, emit);
        } catch (e) {
          const err = e instanceof Error ? e : new Error(String(e));
          const p = current.payload as { articleId?: string; runId?: string };
          const retry = !!h.onError && (opts.retryable?.(err) ?? false);
          this.opts.logger.warn({
            event: 'pipeline.handler.failed',
            handler: h.name,
            run_id: p.runId,
            article_id: p.articleId,
            error: err.message,
            ...(retry ? { retrying: true } : {}),
          });
          if (retry) throw new RetryableFlowError(h.name, err);
          emitted.length = 0;
          if (h.onError) {
            const failure = h.onError(current.payload, err);
            opts.failures?.push(failure);
            emitted.push(failure);
          }
        }
        queue.push(...emitted);
      }
    }
  }
}

/** A handler failed in a way that may pass later: the flow stops here and is tried again. */
export class RetryableFlowError extends Error {
  constructor(
    readonly handler: string,
    readonly error: Error,
  ) {
    super(error.message, { cause: error });
    this.name = 'RetryableFlowError';
  }
}

export interface EventBatch<M> {
  publish: Emit<M>;
  size(): number;
  /** runs every queued flow to its end; onFlowDone is called after each */
  drain(onFlowDone?: () => void): Promise<void>;
}
