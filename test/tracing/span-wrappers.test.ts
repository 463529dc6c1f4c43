import { describe, expect, it } from 'vitest';
import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { pino } from 'pino';
import { TraceScope } from '../../src/infrastructure/tracing/span-wrappers.js';
import { traceRun, traceStages } from '../../src/composition/tracing.js';
import { createRunExecutor } from '../../src/application/pipeline/scraper.service.js';
import { RunModels } from '../../src/application/pipeline/run-models.js';
import { RunWaiters, createCloseRun } from '../../src/application/pipeline/run-end.js';
import type { RunRecord, RunStore } from '../../src/application/pipeline/pipeline.ports.js';

describe('a failing pipeline stage', () => {
  it('ends its span with ERROR status and the exception message, the run fails, the root span too', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const scope = new TraceScope(provider.getTracer('t'));
    const log = pino({ level: 'silent' });
    const finished: { status: string; error: string | null }[] = [];
    let record: RunRecord = {
      id: 'run-1',
      kind: 'scrape',
      status: 'running',
      trigger: 'admin',
      correlationId: 'c-1',
      counts: {},
      summary: {},
      progress: { done: 0, total: 0 },
      errorCount: 0,
      error: null,
      startedAt: new Date(),
      finishedAt: null,
    };
    const runs: Pick<RunStore, 'get' | 'finish' | 'holdArticles' | 'releaseArticles' | 'claimEnd'> = {
      get: () => Promise.resolve(record),
      claimEnd: () => Promise.resolve(record.status === 'running'),
      holdArticles: () => Promise.resolve(),
      releaseArticles: () => Promise.resolve(false),
      finish: (_id, r) => {
        finished.push(r);
        record = { ...record, status: r.status, error: r.error, finishedAt: new Date() };
        return Promise.resolve();
      },
    };
    const waiters = new RunWaiters();
    const stages = traceStages(scope, {
      discover: () => Promise.resolve({ sources: [], entries: [] }),
      fetch: () => Promise.reject(new Error('connection to the database was lost')),
      dedup: () => Promise.resolve({ fresh: [], skipped: [] }),
      publish: () => Promise.resolve({ published: 0 }),
    });
    const execute = traceRun(
      scope,
      createRunExecutor({
        stages,
        runs,
        models: new RunModels(() => Promise.resolve(null), log),
        // the run fails in its fetch stage, before any article job: its own process ends it
        closeRun: createCloseRun({
          runs,
          states: { summarize: () => Promise.resolve({ pending: 0, counts: {} }) },
          steps: { handle: () => Promise.resolve(), notify: () => Promise.resolve() },
          waiters,
          logger: log,
        }),
        waiters,
        logger: log,
      }),
    );
    const outcome = await execute({ id: 'run-1', correlationId: 'c-1', trigger: 'test' });
    expect(outcome).toMatchObject({ status: 'failed', error: 'connection to the database was lost' });
    expect(finished).toEqual([
      expect.objectContaining({ status: 'failed', error: 'connection to the database was lost' }),
    ]);

    const spans = exporter.getFinishedSpans();
    const fetch = spans.find((s) => s.name === 'pipeline.fetch')!;
    expect(fetch.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'connection to the database was lost',
    });
    expect(fetch.events.map((e) => e.name)).toContain('exception');
    expect(spans.find((s) => s.name === 'pipeline.discover')!.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(spans.map((s) => s.name)).not.toContain('pipeline.dedup');
    const root = spans.find((s) => s.name === 'scraper.run')!;
    expect(root.status.code).toBe(SpanStatusCode.ERROR);
    expect(root.attributes).toMatchObject({ 'run.id': 'run-1', 'run.correlation_id': 'c-1' });
    expect(fetch.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
  });
});
