/**
 * The trace context of a job (docs/architecture.md, "The span tree of a run";
 * docs/decisions/0050-durable-jobs-on-pg-boss.md): the span active
 * when a job is sent travels in its payload as a W3C `traceparent`, and the span that processes it
 * (article.pipeline) continues that trace as its child, in whichever process runs it.
 */
import { ROOT_CONTEXT, TraceFlags, isSpanContextValid, trace, type Context } from '@opentelemetry/api';
import type { JobQueue } from '../../application/jobs/job-queue.ports.js';

/** the part of span-wrappers' TraceScope used here (no import back: span-wrappers imports this file) */
interface ActiveContext {
  active(): Context;
  /** the root span's context (a run's), when there is one */
  root?(): Context;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** `00-<trace id>-<span id>-<flags>` of the active span, if any */
export function currentTraceparent(scope: ActiveContext): string | undefined {
  const sc = trace.getSpanContext(scope.active());
  if (!sc || !isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-0${(sc.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
}

/** the last `traceparent` read and its context: a run's jobs all name the run's span */
let last: { traceparent: string; context: Context | undefined } | undefined;

/**
 * The remote parent a `traceparent` names, or undefined for a missing or malformed one. A context
 * is immutable, so the one of the last `traceparent` read is answered again for the same string.
 */
export function contextOf(traceparent: unknown): Context | undefined {
  if (typeof traceparent !== 'string') return undefined;
  if (last?.traceparent === traceparent) return last.context;
  const m = TRACEPARENT.exec(traceparent);
  const sc = m && { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16), isRemote: true };
  const context = sc && isSpanContextValid(sc) ? trace.setSpanContext(ROOT_CONTEXT, sc) : undefined;
  last = { traceparent, context };
  return context;
}

/**
 * Decorates the queue: every job sent carries the trace context of the root span active at send
 * time (a run's `scraper.run`, whichever of its stages sends the job).
 */
export function withTraceContext(scope: ActiveContext, queue: JobQueue): JobQueue {
  const root = { active: () => scope.root?.() ?? scope.active() };
  return {
    define: (q) => queue.define(q),
    send<T extends object>(name: string, jobs: { key?: string; data: T }[]) {
      const traceparent = currentTraceparent(root);
      return queue.send(
        name,
        traceparent ? jobs.map((j) => ({ ...j, data: { ...j.data, traceparent } })) : jobs,
      );
    },
    work: (name, opts, handler) => queue.work(name, opts, handler),
    schedule: (name, cron, run) => queue.schedule(name, cron, run),
    dead: (name, page) => queue.dead(name, page),
    recoverOrphans: (name) => queue.recoverOrphans(name),
    running: () => queue.running(),
    stop: (graceMs) => queue.stop(graceMs),
  };
}
