import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../http/error-body.js';
import { callBackend, relay, type ForwardOptions } from './forward.js';

/** A bearer credential of the request's own `Authorization` header, or undefined. */
export function bearerOf(req: FastifyRequest): string | undefined {
  const given = req.headers.authorization;
  const m = typeof given === 'string' ? /^Bearer[ \t]+([^\s,]{1,512})[ \t]*$/i.exec(given) : null;
  return m?.[1];
}

/**
 * `/mcp` at the web role's public address, for assistants (docs/decisions/0115-mcp-on-the-web-role.md):
 * the request goes to the api's `/mcp` with the caller's own bearer token and nothing of the browser
 * (no cookie, so a signed-in page gives a request no credential it did not carry itself). The api
 * judges the token as it does on its own address; its 401 challenge and JSON-RPC answer come back
 * as they are. Registered in its own scope so the body is carried as raw bytes, as the proxy does.
 */
export function mcpForwarding(opts: ForwardOptions) {
  return async (app: FastifyInstance): Promise<void> => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const q = req.url.indexOf('?');
      try {
        const upstream = await callBackend(req, opts, {
          method: req.method,
          pathAndQuery: '/mcp' + (q === -1 ? '' : req.url.slice(q)),
          token: bearerOf(req),
          body: req.body as Buffer | undefined,
        });
        return relay(reply, upstream);
      } catch (err) {
        req.log.warn({ event: 'web.proxy.upstream_failed', err });
        return reply.status(502).send(errorBody('bad_gateway', 'the backend did not answer', String(req.id)));
      }
    };
    app.route({ method: ['POST', 'GET', 'DELETE'], url: '/mcp', handler });
  };
}
