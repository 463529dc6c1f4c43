import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { forbidden, notFound } from '../../domain/errors.js';
import { NetworkAllowList } from '../plugins/network-allow-list.js';
import { clientIp } from '../plugins/client-ip.js';

export interface PrometheusEndpoint {
  /** the service's instruments in Prometheus' text format */
  text(): Promise<string>;
  /** METRICS_ALLOWED_NETWORKS: who may scrape (the client's address by the TRUSTED_PROXIES rule) */
  allowedNetworks: string[];
}

/**
 * GET /metrics (METRICS_COLLECTOR=true), as Miniflux serves it: the pipeline's counters and
 * histograms for a Prometheus that scrapes the api role, answered only to METRICS_ALLOWED_NETWORKS.
 * The address judged is the original client's, as every limit judges it: a request relayed by a
 * trusted proxy (the web role, which connects from loopback) counts as the browser that sent it,
 * not as the proxy's own allowed address.
 */
export const prometheusRoutes =
  (endpoint: PrometheusEndpoint | undefined, trustedProxies: readonly string[]): FastifyPluginAsyncTypebox =>
  async (app) => {
    const allowed = new NetworkAllowList(endpoint?.allowedNetworks ?? []);
    app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
      if (!endpoint) throw notFound('metrics endpoint (set METRICS_COLLECTOR=true)');
      if (!allowed.allows(clientIp(req, trustedProxies)))
        throw forbidden('this address may not read the metrics (METRICS_ALLOWED_NETWORKS)');
      const text = await endpoint.text();
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(text);
    });
  };
