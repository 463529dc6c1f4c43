import { MonitoringService } from '../application/monitoring/monitoring.service.js';
import { ServiceStatsService } from '../application/monitoring/service-stats.service.js';
import { DrizzleServiceStatsStore } from '../infrastructure/db/repositories/service-stats.repository.js';
import { HttpMonitorUpstream } from '../infrastructure/monitor/http-monitor-upstream.js';
import { LruLastGoodStore } from '../infrastructure/monitor/last-good-store.js';
import type { WireArea } from './context.js';

/** The monitoring proxy: credentials and datasource URLs stay here, in the backend. */
export const wireMonitoring: WireArea = (ctx) => {
  const m = ctx.config.monitor;
  const upstream = new HttpMonitorUpstream({
    apiKey: m.apiKey,
    datasources: { metrics: m.metrics, logs: m.logs, traces: m.traces },
    allowedHosts: m.allowedHosts,
    timeoutMs: m.timeoutMs,
  });
  for (const ds of upstream.refused)
    ctx.logger.warn(
      { event: 'monitor.datasource_refused', datasource: ds },
      'datasource host is not in the allow-list (MONITOR_URL, MONITOR_ALLOWED_HOSTS)',
    );
  const lastGood = new LruLastGoodStore(m.cacheMaxBytes);
  return {
    services: {
      monitoring: new MonitoringService(upstream, ctx.clock, ctx.logger, lastGood),
      serviceStats: new ServiceStatsService(new DrizzleServiceStatsStore(ctx.db), ctx.clock),
    },
  };
};
