/**
 * GET /metrics in Prometheus' text format (METRICS_COLLECTOR=true), read from the same OpenTelemetry
 * instruments that are pushed over OTLP: a PrometheusExporter is one more reader of the meter
 * provider, polled on each scrape instead of serving a port of its own.
 */
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';

export interface PrometheusReader {
  readonly reader: PrometheusExporter;
  /** the current value of every instrument, as Prometheus' text exposition format */
  text(): Promise<string>;
}

export function createPrometheusReader(): PrometheusReader {
  const reader = new PrometheusExporter({ preventServerStart: true });
  const serializer = new PrometheusSerializer();
  return {
    reader,
    async text() {
      const { resourceMetrics } = await reader.collect();
      return serializer.serialize(resourceMetrics);
    },
  };
}
