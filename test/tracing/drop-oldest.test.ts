import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { pino } from 'pino';
import { DropOldestBatchSpanProcessor } from '../../src/infrastructure/tracing/drop-oldest-span-processor.js';
import {
  ExportFailureReporter,
  ReportingSpanExporter,
} from '../../src/infrastructure/tracing/export-failures.js';
import { OtlpReceiver } from '../peers/otlp-receiver.js';

describe('the drop-oldest batch span processor', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await new OtlpReceiver().start();
  });
  afterAll(() => receiver.stop());

  it('exports the NEWEST spans when 10,000 spans go into a buffer of 200', async () => {
    receiver.spans = [];
    const processor = new DropOldestBatchSpanProcessor(
      new ReportingSpanExporter(
        new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }),
        new ExportFailureReporter(pino({ level: 'silent' })),
      ),
      { maxQueueSize: 200, maxExportBatchSize: 200, scheduledDelayMillis: 60_000 },
    );
    const provider = new BasicTracerProvider({ spanProcessors: [processor] });
    const tracer = provider.getTracer('t');
    for (let i = 0; i < 10_000; i++) tracer.startSpan(`span-${i}`).end();
    expect(processor.dropped).toBe(9_800);
    await provider.shutdown();
    const names = receiver.spans.map((s) => s.name);
    expect(names).toHaveLength(200);
    expect(names).toEqual(Array.from({ length: 200 }, (_, i) => `span-${9_800 + i}`));
  });

  it('keeps exporting in batches while spans keep coming, one export at a time', async () => {
    receiver.spans = [];
    const processor = new DropOldestBatchSpanProcessor(
      new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }),
      {
        maxQueueSize: 1000,
        maxExportBatchSize: 50,
        scheduledDelayMillis: 10,
      },
    );
    const provider = new BasicTracerProvider({ spanProcessors: [processor] });
    const tracer = provider.getTracer('t');
    for (let i = 0; i < 300; i++) {
      tracer.startSpan(`s-${i}`).end();
      if (i % 25 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    await processor.forceFlush();
    expect(processor.dropped).toBe(0);
    expect(receiver.spans.map((s) => s.name).sort()).toEqual(
      Array.from({ length: 300 }, (_, i) => `s-${i}`).sort(),
    );
    await provider.shutdown();
  });
});
