import { MonitoringService } from '../application/monitoring/monitoring.service.js';
import { ServiceStatsService } from '../application/monitoring/service-stats.service.js';
import { DrizzleServiceStatsStore } from '../infrastructure/db/repositories/service-stats.repository.js';
import { HttpMonitorUpstream } from '../infrastructure/monitor/http-monitor-upstream.js';
import { LruLastGoodStore } from '../infrastructure/monitor/last-good-store.js';
import { displayUrl, storeAuth } from '../infrastructure/monitor/store-auth.js';
import { OTLP_VARS } from '../infrastructure/tracing/telemetry-config.js';
import type { Config } from '../config.js';
import type { AreaWiring, WiringContext } from './context.js';

interface InfoLogger {
  info(fields: object, msg: string): void;
}

function upstreamOf(m: Config['monitor']) {
  return new HttpMonitorUpstream({
    apiKey: m.apiKey,
    datasources: { metrics: m.metrics, logs: m.logs, traces: m.traces },
    allowedHosts: m.allowedHosts,
    timeoutMs: m.timeoutMs,
  });
}

/**
 * One line per store at the api role's start: configured (where, with or without auth) or not and
 * why, so an admin never has to guess which variable the proxy is missing.
 */
export function logMonitorStores(config: Config, logger: InfoLogger): void {
  for (const s of upstreamOf(config.monitor).status)
    if (s.configured)
      logger.info(
        { event: 'monitor.store', datasource: s.datasource, configured: true, url: s.url, auth: s.how },
        `${s.datasource} store: configured, ${s.url}, ${s.how}`,
      );
    else
      logger.info(
        { event: 'monitor.store', datasource: s.datasource, configured: false, reason: s.why },
        `${s.datasource} store: not configured (${s.why})`,
      );
  const otlp = storeAuth(
    OTLP_VARS,
    config.monitor.otlpEndpoint,
    config.monitor.otlpUser,
    config.monitor.apiKey,
  );
  if (otlp.use)
    logger.info(
      {
        event: 'monitor.otlp',
        configured: true,
        url: displayUrl(otlp.url),
        auth: otlp.how,
      },
      `OTLP push (traces, logs, metrics): configured, ${displayUrl(otlp.url)}, ${otlp.how}`,
    );
  else
    logger.info(
      { event: 'monitor.otlp', configured: false, reason: otlp.why },
      `OTLP push (traces, logs, metrics): off (${otlp.why})`,
    );
}

/** The monitoring proxy: credentials and datasource URLs stay here, in the backend. */
export const wireMonitoring = (ctx: WiringContext): AreaWiring<'monitoring' | 'serviceStats'> => {
  const m = ctx.config.monitor;
  const upstream = upstreamOf(m);
  const lastGood = new LruLastGoodStore(m.cacheMaxBytes);
  return {
    services: {
      monitoring: new MonitoringService(upstream, ctx.clock, ctx.logger, lastGood),
      serviceStats: new ServiceStatsService(new DrizzleServiceStatsStore(ctx.db), ctx.clock, ctx.llmUsage),
    },
  };
};
