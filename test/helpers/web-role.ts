import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildWebServer, type WebServerOptions } from '../../src/web/web-server.js';
import type { TestApp } from './app.js';

/**
 * The web role in front of a test app, both listening on loopback as the two roles of a deployment
 * do: requests to `webUrl` go through the web role to the app. No built SPA (proxy and session
 * endpoints only) unless `distDir` is given; the caller closes `web` before the app.
 */
export async function webRoleInFront(
  t: TestApp,
  opts: Partial<WebServerOptions> = {},
): Promise<{ web: FastifyInstance; apiUrl: string; webUrl: string }> {
  const apiUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const web = await buildWebServer(pino({ level: 'silent' }), {
    apiUrl,
    trustedProxies: ['127.0.0.1'],
    timeoutMs: 10_000,
    distDir: join(tmpdir(), 'no-such-dist'),
    secureCookie: false,
    ...opts,
  });
  const webUrl = await web.listen({ host: '127.0.0.1', port: 0 });
  return { web, apiUrl, webUrl };
}
