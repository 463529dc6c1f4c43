import type { Config } from '../config.js';

/** Values of the configuration that must never appear in a log line or a stored run error. */
export function configuredSecrets(config: Config): string[] {
  return [
    config.auth.secret,
    config.auth.adminPassword,
    config.monitor.apiKey,
    config.telegram.botToken,
    config.s3.secretAccessKey,
    config.embedding.apiKey,
  ].filter((s): s is string => typeof s === 'string' && s.length > 0);
}
