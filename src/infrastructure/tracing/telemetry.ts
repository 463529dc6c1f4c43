/**
 * Traces, logs and metrics over OTLP/HTTP (protobuf), with Basic auth MONITOR_OTLP_USER:
 * MONITOR_API_KEY, only when MONITOR_OTLP_USER, MONITOR_API_KEY and MONITOR_OTLP_ENDPOINT are all
 * set. Otherwise nothing is created and nothing about tracing is logged (spec: tracing 1-3).
 */
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { Logger } from '../../application/shared/ports.js';
import type { PipelineMetrics } from '../../application/pipeline/pipeline.ports.js';
import { DropOldestBatchSpanProcessor, type DropOldestOptions } from './drop-oldest-span-processor.js';
import {
  ExportFailureReporter,
  ReportingLogExporter,
  ReportingMetricExporter,
  ReportingSpanExporter,
} from './export-failures.js';
import { TraceScope } from './span-wrappers.js';
import { OtlpLogSink } from './otlp-log-sink.js';
import { OtelPipelineMetrics, noPipelineMetrics } from './pipeline-metrics.js';

export interface TelemetryConfig {
  serviceName: string;
  deploymentEnvironment: string;
  otlpEndpoint: string | undefined;
  otlpUser: string | undefined;
  apiKey: string | undefined;
}

export interface TelemetryOptions {
  spans?: DropOldestOptions;
  /** per export request (the exporter retries network errors within it) */
  exportTimeoutMs?: number;
}

export interface Telemetry {
  readonly enabled: boolean;
  /** null when tracing is off: the wiring then leaves ports and handlers undecorated */
  readonly scope: TraceScope | null;
  readonly metrics: PipelineMetrics;
  /** receives every log line (JSON) when log shipping is on */
  readonly logSink: ((line: string) => void) | null;
  readonly reporter: ExportFailureReporter | null;
  readonly spanProcessor: DropOldestBatchSpanProcessor | null;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export const tracingConfigured = (c: TelemetryConfig): boolean =>
  Boolean(c.otlpEndpoint && c.otlpUser && c.apiKey);

/** `<endpoint>/v1/<signal>` unless the endpoint already names the signal's path. */
export function signalUrl(endpoint: string, signal: 'traces' | 'logs' | 'metrics'): string {
  const base = endpoint.replace(/\/+$/, '');
  return base.endsWith(`/v1/${signal}`) ? base : `${base}/v1/${signal}`;
}

export function telemetryResource(c: TelemetryConfig): Resource {
  return resourceFromAttributes({
    'service.name': c.serviceName,
    'deployment.environment': c.deploymentEnvironment,
  });
}

const off: Telemetry = {
  enabled: false,
  scope: null,
  metrics: noPipelineMetrics,
  logSink: null,
  reporter: null,
  spanProcessor: null,
  flush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

export function createTelemetry(c: TelemetryConfig, log: Logger, opts: TelemetryOptions = {}): Telemetry {
  if (!tracingConfigured(c)) return off;
  const headers = { Authorization: `Basic ${Buffer.from(`${c.otlpUser}:${c.apiKey}`).toString('base64')}` };
  const timeoutMillis = opts.exportTimeoutMs ?? 10_000;
  const resource = telemetryResource(c);
  const reporter = new ExportFailureReporter(log);

  const spanProcessor = new DropOldestBatchSpanProcessor(
    new ReportingSpanExporter(
      new OTLPTraceExporter({ url: signalUrl(c.otlpEndpoint!, 'traces'), headers, timeoutMillis }),
      reporter,
    ),
    opts.spans,
  );
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  const scope = new TraceScope(tracerProvider.getTracer('article-intel'));

  const loggerProvider = new LoggerProvider({
    resource,
    processors: [
      new BatchLogRecordProcessor({
        exporter: new ReportingLogExporter(
          new OTLPLogExporter({ url: signalUrl(c.otlpEndpoint!, 'logs'), headers, timeoutMillis }),
          reporter,
        ),
        scheduledDelayMillis: 2000,
        maxQueueSize: 8192,
        maxExportBatchSize: 512,
      }),
    ],
  });
  const logSink = new OtlpLogSink(loggerProvider.getLogger('article-intel'));

  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new ReportingMetricExporter(
          new OTLPMetricExporter({ url: signalUrl(c.otlpEndpoint!, 'metrics'), headers, timeoutMillis }),
          reporter,
        ),
        exportIntervalMillis: 60_000,
        exportTimeoutMillis: timeoutMillis,
      }),
    ],
  });
  const metrics = new OtelPipelineMetrics(meterProvider, reporter);

  let closed: Promise<void> | undefined;
  return {
    enabled: true,
    scope,
    metrics,
    logSink: (line) => logSink.write(line),
    reporter,
    spanProcessor,
    async flush() {
      await Promise.allSettled([tracerProvider.forceFlush(), loggerProvider.forceFlush()]);
    },
    shutdown() {
      // all three at once: with the ingest down each waits up to the export timeout, and the
      // process's graceful stop (25 s) must not run out while they do
      return (closed ??= Promise.allSettled([
        tracerProvider.shutdown(),
        meterProvider.shutdown(),
        loggerProvider.shutdown(),
      ]).then(() => undefined));
    },
  };
}
