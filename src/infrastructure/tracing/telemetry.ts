/**
 * Traces, logs and metrics over OTLP/HTTP (protobuf) when MONITOR_OTLP_ENDPOINT is set: with Basic
 * auth MONITOR_OTLP_USER:MONITOR_API_KEY when both are set, without auth when neither is (a user
 * without the key turns it off; store-auth.ts); the metrics also at GET /metrics when
 * METRICS_COLLECTOR is on. With neither, nothing is
 * created and nothing about tracing is logged, and the
 * OpenTelemetry SDK and exporters (otlp-telemetry.ts) are not even loaded: a process without tracing
 * does not pay their memory (docs/decisions/0003-idle-memory.md).
 */
import type { Logger } from '../../application/shared/ports.js';
import {
  tracingConfigured,
  type Telemetry,
  type TelemetryConfig,
  type TelemetryOptions,
} from './telemetry-config.js';

export { signalUrl, tracingConfigured } from './telemetry-config.js';
export type { Telemetry, TelemetryConfig, TelemetryOptions } from './telemetry-config.js';

const off: Telemetry = {
  enabled: false,
  scope: null,
  // not pipeline-metrics.ts's: that file loads @opentelemetry/core
  metrics: { recordRun: () => Promise.resolve() },
  logSink: null,
  reporter: null,
  spanProcessor: null,
  metricsText: null,
  flush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

export async function createTelemetry(
  c: TelemetryConfig,
  log: Logger,
  opts: TelemetryOptions = {},
): Promise<Telemetry> {
  if (!tracingConfigured(c) && !c.prometheus) return off;
  const { createOtlpTelemetry } = await import('./otlp-telemetry.js');
  return createOtlpTelemetry(c, log, opts);
}
