import type { Config } from '../config.js';
import type { HttpOptions } from '../http/services.js';
import type { TelemetryHandle } from './pipeline.js';
import { appVersion } from './app-version.js';

/** What the api role's HTTP layer takes from the configuration (main.ts and the tests build it alike). */
export function httpOptionsOf(config: Config, telemetry: Pick<TelemetryHandle, 'metricsText'>): HttpOptions {
  return {
    trustedProxies: config.trustedProxies,
    rateLimits: config.rateLimits,
    version: appVersion(),
    prometheus:
      config.prometheus.enabled && telemetry.metricsText
        ? { text: telemetry.metricsText, allowedNetworks: config.prometheus.allowedNetworks }
        : undefined,
  };
}
