/** The config, options and shape of telemetry: shared by telemetry.ts and its SDK side, otlp-telemetry.ts. */
import type { PipelineMetrics } from '../../application/pipeline/pipeline.ports.js';
import type { DropOldestBatchSpanProcessor, DropOldestOptions } from './drop-oldest-span-processor.js';
import type { ExportFailureReporter } from './export-failures.js';
import type { TraceScope } from './span-wrappers.js';
import { storeAuth, type StoreAuth } from '../monitor/store-auth.js';

export interface TelemetryConfig {
  serviceName: string;
  deploymentEnvironment: string;
  otlpEndpoint: string | undefined;
  otlpUser: string | undefined;
  apiKey: string | undefined;
  /** serve the instruments at GET /metrics (METRICS_COLLECTOR) */
  prometheus?: boolean;
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
  /** the instruments in Prometheus' text format; null unless METRICS_COLLECTOR is on */
  readonly metricsText: (() => Promise<string>) | null;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

export const OTLP_VARS = { url: 'MONITOR_OTLP_ENDPOINT', user: 'MONITOR_OTLP_USER' };

/**
 * The ingest follows the stores' rule (store-auth.ts): an endpoint alone is pushed to without auth,
 * with MONITOR_OTLP_USER and MONITOR_API_KEY with Basic auth; a user without the key turns it off.
 */
export const otlpAuth = (c: TelemetryConfig): StoreAuth =>
  storeAuth(OTLP_VARS, c.otlpEndpoint, c.otlpUser, c.apiKey);

export const tracingConfigured = (c: TelemetryConfig): boolean => otlpAuth(c).use;

/** `<endpoint>/v1/<signal>` unless the endpoint already names the signal's path. */
export function signalUrl(endpoint: string, signal: 'traces' | 'logs' | 'metrics'): string {
  const base = endpoint.replace(/\/+$/, '');
  return base.endsWith(`/v1/${signal}`) ? base : `${base}/v1/${signal}`;
}
