import { describe, expect, it } from 'vitest';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Attributes,
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
import { createTraceRequestEncoder } from '../../src/infrastructure/tracing/otlp-trace-serializer.js';

/** finished spans of a real SDK tracer, made by `make` with one or two providers */
function spansOf(make: (tracers: ReturnType<BasicTracerProvider['getTracer']>[]) => void): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  const providers = [
    new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': 'article-intel', 'deployment.environment': 'test' }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }),
    new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': '文章', 'host.cores': 2 }),
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    }),
  ];
  make([
    providers[0]!.getTracer('article-intel'),
    providers[0]!.getTracer('other-scope', '1.2.3'),
    providers[1]!.getTracer('article-intel'),
  ]);
  return exporter.getFinishedSpans();
}

const upstream = (spans: ReadableSpan[]) => Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);

const EVERY_KIND_OF_VALUE: Attributes = {
  'article.url': 'https://example.org/a?b=c&d=%20',
  'article.title': 'Über café — 文章 ☃ and an emoji 🚀',
  'lone.surrogate': 'a\ud800b',
  'empty.string': '',
  'long.string': 'x'.repeat(300),
  'longer.string': 'é'.repeat(20_000),
  'int.zero': 0,
  'int.small': 42,
  'int.negative': -1,
  'int.large': 2 ** 40 + 5,
  'int.min_safe': Number.MIN_SAFE_INTEGER,
  'int.2^53': 2 ** 53,
  'int.2^63': 2 ** 63,
  'double.pi': Math.PI,
  'double.negative': -0.5,
  'double.nan': NaN,
  'double.infinity': Infinity,
  'bool.true': true,
  'bool.false': false,
  'array.strings': ['a', 'bé', ''],
  'array.numbers': [1, 2.5, -3],
  'array.bools': [true, false],
  'array.holes': ['a', null, undefined, 'b'],
  'array.empty': [],
};

describe('the OTLP trace request encoder', () => {
  const encode = createTraceRequestEncoder();

  it('writes the bytes the upstream serializer writes, for every kind of attribute, event, link and status', () => {
    const spans = spansOf(([t, other, second]) => {
      t!.startActiveSpan('scraper.run', { attributes: { 'run.id': 'r-1' } }, (root) => {
        const child = t!.startSpan(
          'article.pipeline',
          { kind: SpanKind.CONSUMER, attributes: EVERY_KIND_OF_VALUE },
          trace.setSpan(ROOT_CONTEXT, root),
        );
        child.addEvent('retry', { attempt: 2, 'wait.ms': 1.5 });
        child.addEvent('bare');
        // an event's attributes reach the encoder as given: a nested object is a key-value list
        child.addEvent('nested', {
          detail: { source: 'feed', tries: 3, tags: ['a', 'b'] },
        } as unknown as Attributes);
        child.recordException(new Error('boom: ünïcode'));
        child.setStatus({ code: SpanStatusCode.ERROR, message: 'analysis failed: 模型' });
        child.end();
        const linked = other!.startSpan('with.links', {
          kind: SpanKind.CLIENT,
          links: [
            { context: root.spanContext(), attributes: { why: 'follows' } },
            {
              context: {
                traceId: '0af7651916cd43dd8448eb211c80319c',
                spanId: 'b7ad6b7169203331',
                traceFlags: TraceFlags.NONE,
                isRemote: true,
                traceState: new TraceState('vendor=a,other=b'),
              },
            },
          ],
        });
        linked.setStatus({ code: SpanStatusCode.OK });
        linked.end();
        root.end();
      });
      // a remote parent with trace state: the flags say so
      const remote = trace.setSpanContext(ROOT_CONTEXT, {
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        spanId: '00f067aa0ba902b7',
        traceFlags: TraceFlags.SAMPLED,
        isRemote: true,
        traceState: new TraceState('congo=t61rcWkgMzE'),
      });
      t!.startSpan('article.step', { kind: SpanKind.SERVER }, remote).end();
      second!.startSpan('another.resource', { kind: SpanKind.PRODUCER }).end();
    });
    expect(spans.length).toBe(5);
    expect(Buffer.from(encode(spans)).equals(upstream(spans))).toBe(true);
  });

  it('writes the bytes the upstream serializer writes for a pipeline-sized batch, twice in a row', () => {
    const spans = spansOf(([t]) => {
      for (let i = 0; i < 600; i++) {
        t!.startActiveSpan('article.pipeline', { attributes: { 'article.id': `id-${i}`, n: i } }, (s) => {
          for (const step of ['extract', 'analyze', 'tag', 'translate'])
            t!.startSpan(`article.${step}`, { attributes: { step } }).end();
          s.end();
        });
      }
    });
    expect(spans.length).toBe(3_000);
    const expected = upstream(spans);
    expect(expected.length).toBeGreaterThan(64 * 1024); // past the writer's first buffer
    expect(Buffer.from(encode(spans)).equals(expected)).toBe(true);
    // the buffer kept between calls does not leak into the next request
    const few = spans.slice(0, 3);
    expect(Buffer.from(encode(few)).equals(upstream(few))).toBe(true);
    expect(Buffer.from(encode([])).equals(upstream([]))).toBe(true);
  });

  it('writes a nested object as upstream does (a key-value list), though the SDK lets none through', () => {
    const [made] = spansOf(([t]) => t!.startSpan('nested').end());
    const span = {
      ...made!,
      spanContext: () => made!.spanContext(),
      attributes: { detail: { source: 'feed', tries: 3, tags: ['a', 'b'], inner: { ok: true } } },
    } as unknown as ReadableSpan;
    expect(Buffer.from(encode([span])).equals(upstream([span]))).toBe(true);
  });

  it('answers a copy: encoding again does not change a request already handed to the transport', () => {
    const spans = spansOf(([t]) => t!.startSpan('a').end());
    const first = encode(spans);
    const before = Buffer.from(first);
    encode(spansOf(([t]) => t!.startSpan('b', { attributes: { x: 'y'.repeat(100) } }).end()));
    expect(Buffer.from(first).equals(before)).toBe(true);
  });
});
