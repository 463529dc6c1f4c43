import type { Container } from './container.js';

/**
 * The web role (single-page app + same-origin /api/proxy). Until the web app lands this role has
 * nothing to serve, and says so once.
 */
export async function startWebRole(
  container: Container,
  _apiUrl: string | undefined,
): Promise<{ url: string; stop(): Promise<void> } | null> {
  container.logger.info({ event: 'web.disabled', reason: 'the web app is not built into this version' });
  return null;
}
