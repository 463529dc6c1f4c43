import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import {
  AggregationTemporality,
  type InstrumentType,
  type PushMetricExporter,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import type { Logger } from '../../application/shared/ports.js';

/**
 * Export failures are logged as ONE warning, never thrown (docs/decisions/0042-tracing.md). Exports
 * still in flight when an outage starts may succeed after the first failure, so only a success
 * well after the last failure counts as a recovery and re-arms the warning for the next outage.
 */
export class ExportFailureReporter {
  private warned = false;
  private lastFailure = 0;
  failures = 0;

  constructor(
    private readonly log: Logger,
    private readonly rearmAfterMs = 60_000,
  ) {}

  result(signal: string, res: ExportResult): void {
    if (res.code === ExportResultCode.SUCCESS) {
      if (this.warned && Date.now() - this.lastFailure >= this.rearmAfterMs) {
        this.warned = false;
        this.log.info({ event: 'telemetry.export_recovered', signal });
      }
      return;
    }
    this.failures++;
    this.lastFailure = Date.now();
    if (this.warned) return;
    this.warned = true;
    this.log.warn({
      event: 'telemetry.export_failed',
      signal,
      error: res.error?.message ?? 'export failed',
    });
  }
}

export class ReportingSpanExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly reporter: ExportFailureReporter,
  ) {}
  export(spans: ReadableSpan[], done: (r: ExportResult) => void): void {
    this.inner.export(spans, (res) => {
      this.reporter.result('traces', res);
      done(res);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown().catch(() => undefined);
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.().catch(() => undefined) ?? Promise.resolve();
  }
}

export class ReportingLogExporter implements LogRecordExporter {
  constructor(
    private readonly inner: LogRecordExporter,
    private readonly reporter: ExportFailureReporter,
  ) {}
  export(logs: ReadableLogRecord[], done: (r: ExportResult) => void): void {
    this.inner.export(logs, (res) => {
      this.reporter.result('logs', res);
      done(res);
    });
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown().catch(() => undefined);
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.().catch(() => undefined) ?? Promise.resolve();
  }
}

export class ReportingMetricExporter implements PushMetricExporter {
  constructor(
    private readonly inner: PushMetricExporter,
    private readonly reporter: ExportFailureReporter,
  ) {}
  export(metrics: ResourceMetrics, done: (r: ExportResult) => void): void {
    this.inner.export(metrics, (res) => {
      this.reporter.result('metrics', res);
      done(res);
    });
  }
  selectAggregationTemporality(type: InstrumentType): AggregationTemporality {
    return this.inner.selectAggregationTemporality?.(type) ?? AggregationTemporality.CUMULATIVE;
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush().catch(() => undefined);
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown().catch(() => undefined);
  }
}
