import type { FastifyRequest } from 'fastify';

const normalize = (ip: string) => ip.replace(/^::ffff:/, '');

/**
 * The browser's address (DESIGN.md §4): the left-most X-Forwarded-For entry when the socket peer
 * is a trusted proxy (the web role's /api/proxy), else the socket address. A client that talks to
 * the api directly cannot spoof its address with the header.
 */
export function clientIp(req: FastifyRequest, trustedProxies: readonly string[]): string {
  const peer = normalize(req.socket.remoteAddress ?? req.ip ?? 'unknown');
  if (!trustedProxies.some((p) => normalize(p) === peer)) return peer;
  const header = req.headers['x-forwarded-for'];
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim();
  return first ? normalize(first) : peer;
}
