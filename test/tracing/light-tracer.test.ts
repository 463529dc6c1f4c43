import { describe, expect, it } from 'vitest';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Attributes,
  type Tracer,
} from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { LightTracer } from '../../src/infrastructure/tracing/light-tracer.js';
import { TraceScope, withSpan } from '../../src/infrastructure/tracing/span-wrappers.js';
import { contextOf } from '../../src/infrastructure/tracing/job-trace.js';
import { createTraceRequestEncoder } from '../../src/infrastructure/tracing/otlp-trace-serializer.js';

/**
 * The service's own tracer (light-tracer.ts) against the OpenTelemetry SDK's: the same work through
 * TraceScope and the span wrappers, with each tracer, must finish the same spans (names, kinds,
 * parents, attributes, events, links, status, resource, scope; ids and times aside), and the light
 * spans must encode as the SDK's own protobuf serializer encodes them.
 */
const resource = resourceFromAttributes({
  'service.name': 'article-intel',
  'deployment.environment': 'test',
});
const REMOTE = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const OTHER_REMOTE = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

async function work(scope: TraceScope, tracer: Tracer): Promise<void> {
  await scope.inSpan(
    'scraper.run',
    { root: true, attributes: { 'run.id': 'r1', 'run.trigger': 'admin' } },
    async () => {
      const stage = withSpan(scope, 'pipeline.fetch', (n: number) => Promise.resolve(n * 2), {
        attributes: (n) => ({ 'input.count': n }),
        after: (r) => ({ 'output.count': r, 'skipped.null': null as never, 'skipped.object': {} as never }),
      });
      await stage(21);
      const failing = withSpan(scope, 'pipeline.dedup', () => Promise.reject(new TypeError('dedup broke')));
      await failing().catch(() => undefined);
      const judged = withSpan(scope, 'scraper.pipeline_completed.notify', () => Promise.resolve('x'), {
        errorOf: () => 'webhook answered 500',
      });
      await judged();
    },
  );
  // an article's flow continues a job's traceparent: a remote parent
  await scope.inSpan(
    'article.pipeline',
    { parent: contextOf(REMOTE), attributes: { 'article.url': 'https://example.org/a', 'article.id': 'a1' } },
    async () => {
      for (const name of ['article.scraped.handle', 'article.processed.handle'])
        await scope.inSpan(
          name,
          { leaf: true, attributes: { 'job.attempt': 1, tags: ['a', 'b'] } },
          async (span) => {
            span.addEvent('cache.miss', { key: 'k' });
            span.setAttribute('late', true);
            span.setAttributes({ n: 3.5, list: [1, 2] });
            span.updateName(`${name}`);
          },
        );
      // the span wrappers' leaf spans (an article's steps): attributes before and after, an ERROR
      // status judged from the arguments, a throw
      const step = withSpan(
        scope,
        'article.tag_normalization.handle',
        (n: number) => Promise.resolve(n + 1),
        {
          leaf: true,
          attributes: (n) => ({ 'input.n': n }),
          after: (r) => ({ 'output.n': r }),
        },
      );
      await step(1);
      const failed = withSpan(
        scope,
        'article.analysis_failed.handle',
        (_f: { error: string }) => Promise.resolve('written'),
        { leaf: true, errorOf: (_r, f) => f.error },
      );
      await failed({ error: 'model answered 500' });
      const thrown = withSpan(scope, 'article.translate.handle', () => Promise.reject(new RangeError('no')), {
        leaf: true,
      });
      await thrown().catch(() => undefined);
    },
  );
  // the next article of another run: its own remote parent, not the last one's
  await scope.inSpan('article.pipeline', { parent: contextOf(OTHER_REMOTE) }, () =>
    withSpan(scope, 'article.scraped.handle', () => Promise.resolve(), { leaf: true })(),
  );
  // the tracer used directly, as a library would
  const direct = tracer.startSpan('direct', {
    kind: SpanKind.CLIENT,
    links: [
      {
        context: {
          traceId: '0af7651916cd43dd8448eb211c80319c',
          spanId: 'b7ad6b7169203331',
          traceFlags: TraceFlags.SAMPLED,
          traceState: new TraceState('k=v'),
        },
        attributes: { why: 'retry' },
      },
    ],
  });
  direct.recordException('a plain message');
  direct.setStatus({ code: SpanStatusCode.OK });
  direct.setStatus({ code: SpanStatusCode.ERROR, message: 'ignored after OK' });
  direct.end();
  direct.setAttribute('after.end', 1);
  tracer.startActiveSpan('active', (span) => {
    tracer.startSpan('inside').end();
    span.end();
  });
  // the SDK's sanitising: arrays copied at start, nulls kept in events and links, invalid values and
  // empty keys left out, links over the limit dropped oldest first, timed events
  const list = ['a', 'b'];
  const linked = tracer.startSpan('linked', {
    attributes: { list, '': 'no key' },
    links: Array.from({ length: 130 }, (_, i) => ({
      context: {
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: (i + 1).toString(16).padStart(16, '0'),
        traceFlags: TraceFlags.SAMPLED,
      },
      ...(i % 2 ? { attributes: { i, nothing: null as never, object: {} as never } } : {}),
    })),
  });
  list.push('changed after start');
  linked.addEvent('with.null', { a: null as never, b: 'x', c: {} as never, d: [1, 'two'] as never });
  linked.addEvent('timed', [1_700_000_000, 5]);
  linked.addEvent('timed.ms', 1_700_000_000_123);
  linked.end();
  const many = tracer.startSpan('many');
  for (let i = 0; i < 130; i++) many.setAttribute(`a${i}`, i);
  for (let i = 0; i < 130; i++) many.addEvent(`e${i}`);
  many.end();
}

async function finished(make: (processor: SimpleSpanProcessor) => Tracer): Promise<ReadableSpan[]> {
  const exporter = new InMemorySpanExporter();
  const tracer = make(new SimpleSpanProcessor(exporter));
  await work(new TraceScope(tracer), tracer);
  return exporter.getFinishedSpans();
}

/** a span without its ids and times: parents by name instead (names are unique in `work`, but for the steps) */
function shape(spans: ReadableSpan[]) {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s.name]));
  return spans.map((s) => ({
    name: s.name,
    kind: s.kind,
    parent: s.parentSpanContext
      ? (byId.get(s.parentSpanContext.spanId) ??
        `remote ${s.parentSpanContext.spanId} ${String(s.parentSpanContext.isRemote)}`)
      : null,
    sameTraceAsParent: s.parentSpanContext ? s.parentSpanContext.traceId === s.spanContext().traceId : null,
    traceFlags: s.spanContext().traceFlags,
    attributes: s.attributes,
    events: s.events.map((e) => ({
      name: e.name,
      attributes: e.attributes && {
        ...e.attributes,
        'exception.stacktrace': e.attributes['exception.stacktrace'] ? 'stack' : undefined,
      },
    })),
    links: s.links,
    status: s.status,
    dropped: [s.droppedAttributesCount, s.droppedEventsCount, s.droppedLinksCount],
    resource: s.resource.attributes,
    scope: s.instrumentationScope,
    ended: s.ended,
    nonNegative: s.duration[0] >= 0 && s.duration[1] >= 0,
  }));
}

describe('the light tracer against the OpenTelemetry SDK', () => {
  it('finishes the same spans for the same work', async () => {
    const sdk = await finished((p) =>
      new BasicTracerProvider({ resource, spanProcessors: [p] }).getTracer('article-intel'),
    );
    const light = await finished((p) => new LightTracer(resource, { name: 'article-intel' }, p));
    expect(light.length).toBe(17);
    expect(shape(light)).toEqual(shape(sdk));
    // what the comparison covers really happened
    const names = light.map((s) => s.name);
    expect(names.filter((n) => n === 'scraper.run')).toHaveLength(1);
    const dedup = light.find((s) => s.name === 'pipeline.dedup')!;
    expect(dedup.status).toEqual({ code: SpanStatusCode.ERROR, message: 'dedup broke' });
    expect(dedup.events[0]!.attributes).toMatchObject({ 'exception.type': 'TypeError' });
    const many = light.find((s) => s.name === 'many')!;
    expect([Object.keys(many.attributes).length, many.droppedAttributesCount]).toEqual([128, 2]);
    expect([many.events.length, many.droppedEventsCount, many.events[0]!.name]).toEqual([128, 2, 'e2']);
    const linked = light.find((s) => s.name === 'linked')!;
    expect(linked.attributes).toEqual({ list: ['a', 'b'] });
    expect([linked.links.length, linked.droppedLinksCount, linked.links[0]!.context.spanId]).toEqual([
      128,
      2,
      '0000000000000003',
    ]);
    expect(linked.links[1]).toEqual({
      context: linked.links[1]!.context,
      attributes: { i: 3, nothing: null },
    });
    expect(linked.events[0]!.attributes).toEqual({ a: null, b: 'x' });
    expect(linked.events[1]!.time).toEqual([1_700_000_000, 5]);
    const [article, next] = light.filter((s) => s.name === 'article.pipeline');
    expect(article!.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(article!.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
    expect(next!.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(next!.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    const step = light.find((s) => s.name === 'article.tag_normalization.handle')!;
    expect(step.attributes).toEqual({ 'input.n': 1, 'output.n': 2 });
    expect(step.parentSpanContext?.spanId).toBe(article!.spanContext().spanId);
    expect(light.find((s) => s.name === 'article.analysis_failed.handle')!.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'model answered 500',
    });
    const thrown = light.find((s) => s.name === 'article.translate.handle')!;
    expect(thrown.status).toEqual({ code: SpanStatusCode.ERROR, message: 'no' });
    expect(thrown.events[0]!.attributes).toMatchObject({ 'exception.type': 'RangeError' });
    // spans with no links or events of their own answer empty ones
    expect([step.links, step.events, step.status]).toEqual([[], [], { code: SpanStatusCode.UNSET }]);
  });

  it('gives valid, distinct ids, children in their parent trace, and a new trace for a root', async () => {
    const light = await finished((p) => new LightTracer(resource, { name: 'article-intel' }, p));
    const ids = light.map((s) => s.spanContext().spanId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of light) expect(trace.isSpanContextValid(s.spanContext())).toBe(true);
    const run = light.find((s) => s.name === 'scraper.run')!;
    const fetch = light.find((s) => s.name === 'pipeline.fetch')!;
    expect(fetch.spanContext().traceId).toBe(run.spanContext().traceId);
    expect(fetch.parentSpanContext?.spanId).toBe(run.spanContext().spanId);
    const direct = light.find((s) => s.name === 'direct')!;
    expect(direct.spanContext().traceId).not.toBe(run.spanContext().traceId);
    // a root span under an active parent still starts a trace of its own
    const tracer = new LightTracer(
      resource,
      { name: 'article-intel' },
      new SimpleSpanProcessor(new InMemorySpanExporter()),
    );
    const parent = tracer.startSpan('p');
    const root = tracer.startSpan('r', { root: true }, trace.setSpan(ROOT_CONTEXT, parent));
    expect(root.spanContext().traceId).not.toBe(parent.spanContext().traceId);
  });

  it('encodes as the SDK serializer encodes the same light spans, and as ours does', async () => {
    const light = await finished((p) => new LightTracer(resource, { name: 'article-intel' }, p));
    const upstream = Buffer.from(ProtobufTraceSerializer.serializeRequest(light)!);
    expect(Buffer.from(createTraceRequestEncoder()(light))).toEqual(upstream);
    expect(upstream.length).toBeGreaterThan(1000);
  });

  it('keeps each time as it was given (HrTime, epoch ms, Date) and encodes it as the SDK serializer does', () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new LightTracer(resource, { name: 'article-intel' }, new SimpleSpanProcessor(exporter));
    // epoch times after this process's start: a number before it is read as performance.now()-based
    tracer.startSpan('hr', { startTime: [1_900_000_000, 123_456_789] }).end([1_900_000_001, 5]);
    tracer.startSpan('ms', { startTime: 1_900_000_000_123.5 }).end(1_900_000_000_200.25);
    tracer.startSpan('date', { startTime: new Date(1_900_000_000_000) }).end(new Date(1_900_000_000_250));
    tracer.startSpan('mixed', { startTime: [1_900_000_000, 0] }).end(1_900_000_000_250);
    // an end before the start is the start, as the SDK makes it
    tracer.startSpan('backwards.ms', { startTime: 1_900_000_000_500 }).end(1_900_000_000_100);
    tracer.startSpan('backwards.hr', { startTime: [1_900_000_000, 500] }).end([1_899_999_999, 0]);
    const open = tracer.startSpan('open', { startTime: 1_900_000_000_000 }) as unknown as ReadableSpan;
    expect([open.endTime, open.duration]).toEqual([
      [0, 0],
      [0, 0],
    ]);
    const spans = exporter.getFinishedSpans();
    const times = Object.fromEntries(spans.map((s) => [s.name, [s.startTime, s.endTime, s.duration]]));
    expect(times).toEqual({
      hr: [
        [1_900_000_000, 123_456_789],
        [1_900_000_001, 5],
        [0, 876_543_216],
      ],
      ms: [
        [1_900_000_000, 123_500_000],
        [1_900_000_000, 200_250_000],
        [0, 76_750_000],
      ],
      date: [
        [1_900_000_000, 0],
        [1_900_000_000, 250_000_000],
        [0, 250_000_000],
      ],
      mixed: [
        [1_900_000_000, 0],
        [1_900_000_000, 250_000_000],
        [0, 250_000_000],
      ],
      'backwards.ms': [
        [1_900_000_000, 500_000_000],
        [1_900_000_000, 500_000_000],
        [0, 0],
      ],
      'backwards.hr': [
        [1_900_000_000, 500],
        [1_900_000_000, 500],
        [0, 0],
      ],
    });
    // the encoder reads epoch milliseconds where the span kept them, HrTime where it was given one
    const upstream = Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
    expect(Buffer.from(createTraceRequestEncoder()(spans))).toEqual(upstream);
  });

  it("reads a job's traceparent into its remote parent, the same one for the same string", () => {
    const parentOf = (tp: unknown) => {
      const c = contextOf(tp);
      return c && trace.getSpanContext(c);
    };
    const first = contextOf(REMOTE);
    expect(contextOf(REMOTE)).toBe(first);
    expect(parentOf(REMOTE)).toEqual({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: TraceFlags.SAMPLED,
      isRemote: true,
    });
    expect(parentOf(OTHER_REMOTE)?.spanId).toBe('b7ad6b7169203331');
    const zero = `00-${'0'.repeat(32)}-b7ad6b7169203331-01`;
    for (const bad of [zero, zero, 'garbage', 42, undefined]) expect(contextOf(bad)).toBeUndefined();
    expect(parentOf(REMOTE)?.spanId).toBe('00f067aa0ba902b7');
  });

  it('keeps a span ended once and attributes of the accepted kinds', () => {
    const exporter = new InMemorySpanExporter();
    const tracer = new LightTracer(resource, { name: 'article-intel' }, new SimpleSpanProcessor(exporter));
    const span = tracer.startSpan('once', {
      attributes: { ok: 'x', mixed: ['a', 1] as never, holes: ['a', null, 'b'] as never, '': 'no key' },
    });
    expect(span.isRecording()).toBe(true);
    span.end();
    span.end();
    expect(span.isRecording()).toBe(false);
    expect(exporter.getFinishedSpans()).toHaveLength(1);
    const attrs: Attributes = exporter.getFinishedSpans()[0]!.attributes;
    expect(attrs).toEqual({ ok: 'x', holes: ['a', null, 'b'] });
  });
});
