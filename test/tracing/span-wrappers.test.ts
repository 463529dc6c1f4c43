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
import { EventBus } from '../../src/application/pipeline/event-bus.js';
import { RunRegistry } from '../../src/application/pipeline/run-registry.js';
import type { PipelineEvents } from '../../src/application/pipeline/pipeline.events.js';
import type { RunStore } from '../../src/application/pipeline/pipeline.ports.js';
import type { ArticleJobs, ArticleStates } from '../../src/application/pipeline/article-jobs.js';

describe('a failing pipeline stage', () => {
  it('ends its span with ERROR status and the exception message, the run fails, the root span too', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const scope = new TraceScope(provider.getTracer('t'));
    const log = pino({ level: 'silent' });
    const registry = new RunRegistry(() => Promise.resolve(null), log);
    const finished: { status: string; error: string | null }[] = [];
    const runs: Pick<RunStore, 'create' | 'get' | 'recordSkips' | 'finish'> = {
      create: () => Promise.reject(new Error('unused')),
      get: () => Promise.resolve(null),
      recordSkips: () => Promise.resolve(),
      finish: (_id, r) => {
        finished.push(r);
        return Promise.resolve();
      },
    };
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
        bus: new EventBus<PipelineEvents>([], { logger: log }),
        runs,
        registry,
        // never reached: the run fails in its fetch stage, before any article job
        jobs: null as unknown as ArticleJobs,
        states: null as unknown as ArticleStates,
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
