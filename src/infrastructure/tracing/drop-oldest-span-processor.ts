import { TraceFlags, type Context } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, Span, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface DropOldestOptions {
  /** spans held at most; when full the OLDEST span is dropped for the new one */
  maxQueueSize?: number;
  maxExportBatchSize?: number;
  scheduledDelayMillis?: number;
}

/**
 * A batch span processor that keeps the most recent spans. The stock BatchSpanProcessor drops the
 * NEWEST span when its buffer is full; a run that produces too many spans would then lose its
 * end (failures, completion). This one drops the oldest instead (docs/decisions/0042-tracing.md).
 * Exports run one at a time; forceFlush and shutdown export everything still held.
 */
export class DropOldestBatchSpanProcessor implements SpanProcessor {
  private buf: ReadableSpan[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  private soon: NodeJS.Immediate | null = null;
  private exporting: Promise<void> | null = null;
  private stopped = false;
  private readonly maxQueue: number;
  private readonly batchSize: number;
  private readonly delay: number;
  /** spans dropped because the buffer was full */
  dropped = 0;

  constructor(
    private readonly exporter: SpanExporter,
    opts: DropOldestOptions = {},
  ) {
    this.maxQueue = Math.max(1, opts.maxQueueSize ?? 2048);
    this.batchSize = Math.max(1, Math.min(opts.maxExportBatchSize ?? 512, this.maxQueue));
    this.delay = opts.scheduledDelayMillis ?? 5000;
  }

  get size(): number {
    return this.buf.length - this.head;
  }

  onStart(_span: Span, _parentContext: Context): void {}

  onEnd(span: ReadableSpan): void {
    if (this.stopped || (span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.size >= this.maxQueue) {
      this.head++;
      this.dropped++;
    }
    this.buf.push(span);
    if (this.head > 1024 && this.head * 2 > this.buf.length) {
      this.buf = this.buf.slice(this.head);
      this.head = 0;
    }
    if (this.size >= this.batchSize) this.kickSoon();
    else this.arm();
  }

  /**
   * A full batch is exported on the next turn of the event loop, not inside onEnd: a burst of spans
   * ended in one go is thinned to its newest spans before anything of it is sent.
   */
  private kickSoon(): void {
    if (this.soon || this.exporting) return;
    this.soon = setImmediate(() => {
      this.soon = null;
      this.kick();
    });
  }

  async forceFlush(): Promise<void> {
    this.disarm();
    while (this.exporting || this.size > 0) {
      if (this.exporting) await this.exporting;
      else this.kick();
    }
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    await this.forceFlush();
    this.stopped = true;
    await this.exporter.shutdown();
  }

  private take(): ReadableSpan[] {
    const n = Math.min(this.batchSize, this.size);
    const batch = this.buf.slice(this.head, this.head + n);
    this.head += n;
    if (this.head === this.buf.length) {
      this.buf = [];
      this.head = 0;
    }
    return batch;
  }

  /** starts exporting now unless an export is in flight (it continues when that one ends) */
  private kick(): void {
    if (this.exporting || this.size === 0) return;
    this.disarm();
    const batch = this.take();
    this.exporting = new Promise<ExportResult>((resolve) => {
      try {
        this.exporter.export(batch, resolve);
      } catch (err) {
        resolve({ code: ExportResultCode.FAILED, error: err as Error });
      }
    }).then(() => {
      this.exporting = null;
      if (this.size >= this.batchSize) this.kick();
      else if (this.size > 0) this.arm();
    });
  }

  private arm(): void {
    if (this.timer || this.exporting || this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.kick();
    }, this.delay);
    // pending spans never keep the process alive: exit and signals flush them (see tracing.ts)
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.soon) clearImmediate(this.soon);
    this.timer = null;
    this.soon = null;
  }
}
