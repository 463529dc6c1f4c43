/** The OpenTelemetry SDK side of telemetry.ts, loaded only when tracing is configured. */
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import type { Logger } from '../../application/shared/ports.js';
import { DropOldestBatchSpanProcessor } from './drop-oldest-span-processor.js';
import { LightTracer } from './light-tracer.js';
import { FastOtlpTraceExporter } from './otlp-trace-serializer.js';
import {
  ExportFailureReporter,
  ReportingLogExporter,
  ReportingMetricExporter,
  ReportingSpanExporter,
} from './export-failures.js';
import { TraceScope } from './span-wrappers.js';
import { OtlpLogSink } from './otlp-log-sink.js';
import { OtelPipelineMetrics } from './pipeline-metrics.js';
import { createPrometheusReader } from './prometheus-metrics.js';
import {
  signalUrl,
  tracingConfigured,
  otlpAuth,
  type Telemetry,
  type TelemetryConfig,
  type TelemetryOptions,
} from './telemetry-config.js';

export function telemetryResource(c: TelemetryConfig): Resource {
  return resourceFromAttributes({
    'service.name': c.serviceName,
    'deployment.environment': c.deploymentEnvironment,
  });
}

/**
 * Tracer, logger and meter providers with their OTLP exporters when tracing is configured, and the
 * meter's Prometheus reader when METRICS_COLLECTOR is on (the caller checked that one of them is).
 */
export function createOtlpTelemetry(c: TelemetryConfig, log: Logger, opts: TelemetryOptions = {}): Telemetry {
  const resource = telemetryResource(c);
  const reporter = new ExportFailureReporter(log);
  const prometheus = c.prometheus ? createPrometheusReader() : null;
  const otlp = tracingConfigured(c) ? otlpExporters(c, reporter, opts) : null;
  const meterProvider = new MeterProvider({
    resource,
    readers: [...(otlp ? [otlp.metricReader] : []), ...(prometheus ? [prometheus.reader] : [])],
  });
  const metrics = new OtelPipelineMetrics(meterProvider, reporter);
  const metricsText = prometheus ? () => prometheus.text() : null;
  if (!otlp) {
    return {
      enabled: false,
      scope: null,
      metrics,
      logSink: null,
      reporter: null,
      spanProcessor: null,
      metricsText,
      flush: () => Promise.resolve(),
      shutdown: () => meterProvider.shutdown(),
    };
  }

  // the service's spans are made by its own tracer (every span kept, as the SDK's AlwaysOnSampler
  // would), handed to the same processor and OTLP exporter (docs/decisions/0164-light-tracer.md)
  const spanProcessor = otlp.spanProcessor;
  const scope = new TraceScope(new LightTracer(resource, { name: 'article-intel' }, spanProcessor));
  const loggerProvider = new LoggerProvider({ resource, processors: [otlp.logProcessor] });
  const logSink = new OtlpLogSink(loggerProvider.getLogger('article-intel'));

  let closed: Promise<void> | undefined;
  return {
    enabled: true,
    scope,
    metrics,
    logSink: (line) => logSink.write(line),
    reporter,
    spanProcessor: otlp.spanProcessor,
    metricsText,
    async flush() {
      await Promise.allSettled([spanProcessor.forceFlush(), loggerProvider.forceFlush()]);
    },
    shutdown() {
      // all three at once: with the ingest down each waits up to the export timeout, and the
      // process's graceful stop (25 s) must not run out while they do
      return (closed ??= Promise.allSettled([
        spanProcessor.shutdown(),
        meterProvider.shutdown(),
        loggerProvider.shutdown(),
      ]).then(() => undefined));
    },
  };
}

/**
 * The OTLP/HTTP exporters of the three signals, with Basic auth MONITOR_OTLP_USER:MONITOR_API_KEY,
 * or without an Authorization header for an ingest without auth (an endpoint alone).
 */
function otlpExporters(c: TelemetryConfig, reporter: ExportFailureReporter, opts: TelemetryOptions) {
  const auth = otlpAuth(c);
  const headers: Record<string, string> =
    auth.use && auth.authorization ? { Authorization: auth.authorization } : {};
  const timeoutMillis = opts.exportTimeoutMs ?? 10_000;
  const spanProcessor = new DropOldestBatchSpanProcessor(
    new ReportingSpanExporter(
      new FastOtlpTraceExporter({ url: signalUrl(c.otlpEndpoint!, 'traces'), headers, timeoutMillis }),
      reporter,
    ),
    opts.spans,
  );
  const logProcessor = new BatchLogRecordProcessor({
    exporter: new ReportingLogExporter(
      new OTLPLogExporter({ url: signalUrl(c.otlpEndpoint!, 'logs'), headers, timeoutMillis }),
      reporter,
    ),
    scheduledDelayMillis: 2000,
    maxQueueSize: 8192,
    maxExportBatchSize: 512,
  });
  const metricReader = new PeriodicExportingMetricReader({
    exporter: new ReportingMetricExporter(
      new OTLPMetricExporter({ url: signalUrl(c.otlpEndpoint!, 'metrics'), headers, timeoutMillis }),
      reporter,
    ),
    exportIntervalMillis: 60_000,
    exportTimeoutMillis: timeoutMillis,
  });
  return { spanProcessor, logProcessor, metricReader };
}
