import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../../domain/errors.js';
import type { AssistantToolName } from '../../application/assistant/assistant-tools.js';
import type { RateLimitRule } from '../../application/shared/rate-limit.js';
import { clientKey } from '../plugins/client-ip.js';
import type { HttpOptions, Services } from '../services.js';
import { REALM } from './mcp-realm.js';

/**
 * The MCP SDK and its zod schemas (~8 MB of heap) are loaded by the first POST /mcp, not at start:
 * an idle service never holds them (docs/decisions/0148-idle-memory-lazy-modules.md).
 */
let sdk: Promise<typeof import('./mcp-server.js')> | undefined;
// a failed load is not kept: the next POST tries again instead of failing for the process's life
const mcpServer = () =>
  (sdk ??= import('./mcp-server.js').catch((err: unknown) => {
    sdk = undefined;
    throw err;
  }));

const JSON_RPC_ONLY = { allow: 'POST' };

/**
 * The tool calls that cost what a rate-limited API call costs, with that route's rule: a search
 * (`GET /articles?q=`, browsing without a query is not counted) and similar articles.
 */
const LIMITED: Partial<
  Record<AssistantToolName, (input: Record<string, unknown>) => 'search' | 'similar' | null>
> = {
  search_articles: (input) => (typeof input.query === 'string' && input.query.trim() ? 'search' : null),
  similar_articles: () => 'similar',
};

/**
 * The MCP server for assistants, on the official SDK's Streamable HTTP transport in stateless mode:
 * every POST builds a server for its caller, answers in JSON and is gone (no session to keep or
 * share between replicas). Only a personal access token gets in (401 with WWW-Authenticate
 * otherwise); a `read` token's POSTs pass the route's scope check, and the write tools refuse it.
 */
export const mcpRoutes =
  (
    services: Services,
    opts: Pick<HttpOptions, 'trustedProxies' | 'rateLimits' | 'version'>,
  ): FastifyPluginAsync =>
  async (app) => {
    const requireToken = async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.principal?.token) return;
      const given = req.headers.authorization;
      reply.header(
        'www-authenticate',
        given
          ? `Bearer realm="${REALM}", error="invalid_token", error_description="a valid personal access token is needed"`
          : `Bearer realm="${REALM}"`,
      );
      throw unauthorized(
        given ? 'the token is not a valid personal access token' : 'a personal access token is needed',
        given ? 'invalid_token' : 'unauthorized',
      );
    };
    const rules = opts.rateLimits ?? {};

    app.post(
      '/mcp',
      { onRequest: requireToken, config: { ownTokenScope: true }, schema: { hide: true } },
      async (req, reply) => {
        const caller = req.principal!;
        const { buildServer, toolError, webRequest, WebStandardStreamableHTTPServerTransport } =
          await mcpServer();
        const server = buildServer(services.assistant, caller, opts.version ?? '0.0.0', {
          overLimit: async (tool, input) => {
            const name = LIMITED[tool]?.(input);
            const rule = name ? rules[name] : null;
            return rule ? limited(services, rule, clientKey(req, opts.trustedProxies)) : null;
          },
          failed: (tool, err) => {
            req.log.error({ event: 'mcp.tool_failed', tool, err }, 'an MCP tool failed');
            return toolError('internal_error', `an internal error occurred (correlation id ${req.id})`);
          },
        });
        const transport = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: undefined,
          enableJsonResponse: true,
        });
        try {
          await server.connect(transport);
          const res = await transport.handleRequest(webRequest(req), { parsedBody: req.body });
          reply.status(res.status);
          res.headers.forEach((value, name) => void reply.header(name, value));
          const body = await res.text();
          return reply.send(body || null);
        } finally {
          await server.close();
        }
      },
    );
    // stateless: no stream for server-initiated messages and no session to end
    for (const method of ['GET', 'DELETE'] as const)
      app.route({
        method,
        url: '/mcp',
        onRequest: requireToken,
        config: { ownTokenScope: true },
        schema: { hide: true },
        handler: async (_req, reply) =>
          reply
            .status(405)
            .headers(JSON_RPC_ONLY)
            .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null }),
      });
  };

/** A refusal of a tool call over its rate limit, or null when it may go on. */
async function limited(services: Services, rule: RateLimitRule, key: string): Promise<string | null> {
  const decision = await services.rateLimiter.hit(rule, key);
  return decision.allowed ? null : `too many requests, try again in ${decision.resetSeconds} s`;
}
