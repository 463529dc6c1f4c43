import type { Config } from '../config.js';
import type { HttpOptions, Services } from '../http/services.js';
import { appVersion } from './app-version.js';

/** What the api role's HTTP layer takes from the configuration (main.ts and the tests build it alike). */
export function httpOptionsOf(config: Config, services: Services): HttpOptions {
  return {
    trustedProxies: config.trustedProxies,
    rateLimits: config.rateLimits,
    version: appVersion(),
    prometheus:
      config.prometheus.enabled && services.metricsText
        ? { text: services.metricsText, allowedNetworks: config.prometheus.allowedNetworks }
        : undefined,
  };
}
