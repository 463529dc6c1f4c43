import { join } from 'node:path';
import type { Container } from './container.js';
import { buildWebServer } from '../web/web-server.js';
import { ensureSpaBuilt } from '../web/spa-build.js';
import { projectRoot } from '../infrastructure/project-root.js';

const ROOT = projectRoot();

/**
 * The web role (single-page app + same-origin /api/proxy). `apiUrl` is the api role started in the
 * same process, when there is one; otherwise API_URL from the config.
 */
export async function startWebRole(
  container: Container,
  apiUrl: string | undefined,
  opts: { build?: boolean; port?: number; host?: string } = {},
): Promise<{ url: string; stop(): Promise<void> }> {
  const { config, logger } = container;
  if (opts.build !== false) {
    // a broken front-end build must not take the api and worker of the same process down with it
    await ensureSpaBuilt(ROOT, logger).catch((err: unknown) =>
      logger.error({ event: 'web.build.failed', err }, 'serving the previous build, if any'),
    );
  }
  const target = apiUrl
    ? apiUrl.replace('://0.0.0.0', '://127.0.0.1').replace('://[::]', '://127.0.0.1')
    : config.web.apiUrl;
  const app = await buildWebServer(logger, {
    apiUrl: target,
    trustedProxies: config.trustedProxies,
    timeoutMs: 60_000,
    distDir: join(ROOT, 'web', 'dist'),
    secureCookie: config.publicBaseUrl.startsWith('https://'),
  });
  const url = await app.listen({ host: opts.host ?? config.web.host, port: opts.port ?? config.web.port });
  logger.info({ event: 'web.listening', url, api: target });
  return { url, stop: () => app.close() };
}
