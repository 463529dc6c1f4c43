import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isAppError, unauthorized, type ErrorCode } from '../../domain/errors.js';
import type { Principal } from '../../domain/users.js';
import type { AssistantToolName, AssistantTools } from '../../application/assistant/assistant-tools.js';
import type { RateLimitRule } from '../../application/shared/rate-limit.js';
import { clientKey } from '../plugins/client-ip.js';
import type { HttpOptions, Services } from '../services.js';
import { MCP_TOOLS } from './mcp-tools.js';

const REALM = 'article-intel';
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

function buildServer(
  tools: AssistantTools,
  caller: Principal,
  version: string,
  hooks: {
    overLimit(tool: AssistantToolName, input: Record<string, unknown>): Promise<string | null>;
    /** an unexpected failure: logged, answered without its details */
    failed(tool: AssistantToolName, err: unknown): CallToolResult;
  },
): McpServer {
  const server = new McpServer(
    { name: REALM, title: 'Article Intelligence Service', version },
    {
      instructions:
        'Articles collected, ranked and summarised per topic. Cite an article by its url. ' +
        'Start with list_topics or search_articles.',
    },
  );
  for (const name of Object.keys(MCP_TOOLS) as AssistantToolName[]) {
    const def = MCP_TOOLS[name];
    const run = tools[name] as (caller: Principal, input: unknown) => Promise<unknown>;
    server.registerTool(
      name,
      {
        title: def.title,
        description: def.description,
        inputSchema: def.inputSchema,
        annotations: def.annotations,
      },
      async (given: unknown): Promise<CallToolResult> => {
        const input = (given ?? {}) as Record<string, unknown>;
        const refusal = await hooks.overLimit(name, input);
        if (refusal) return toolError('rate_limited', refusal);
        try {
          const result = (await run(caller, input)) as Record<string, unknown>;
          return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
        } catch (err) {
          return isAppError(err) ? toolError(err.code, err.message) : hooks.failed(name, err);
        }
      },
    );
  }
  return server;
}

/** A tool's failure as the assistant sees it: `code: message`, the code one of the API's error codes. */
const toolError = (code: ErrorCode, message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `${code}: ${message}` }],
});

/** The Fastify request as the transport's web Request (the body is handed over already parsed). */
function webRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return new Request('http://localhost/mcp', { method: 'POST', headers });
}
