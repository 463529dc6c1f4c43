import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { LogRecordExporter, ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { Logger } from '../../application/shared/ports.js';

/**
 * Export failures are logged as ONE warning, never thrown (spec: behaviour of tracing 3); a later
 * success re-arms the warning for the next outage.
 */
export class ExportFailureReporter {
  private warned = false;
  failures = 0;

  constructor(private readonly log: Logger) {}

  result(signal: string, res: ExportResult): void {
    if (res.code === ExportResultCode.SUCCESS) {
      if (this.warned) this.log.info({ event: 'telemetry.export_recovered', signal });
      this.warned = false;
      return;
    }
    this.failures++;
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
