/**
 * The MCP server of one POST /mcp (mcp.routes.ts): the official SDK, loaded on the first call.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyRequest } from 'fastify';
import { isAppError, type ErrorCode } from '../../domain/errors.js';
import type { Principal } from '../../domain/users.js';
import type { AssistantToolName, AssistantTools } from '../../application/assistant/assistant-tools.js';
import { MCP_TOOLS } from './mcp-tools.js';
import { REALM } from './mcp-realm.js';

export { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

export function buildServer(
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
export const toolError = (code: ErrorCode, message: string): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: `${code}: ${message}` }],
});

/** The Fastify request as the transport's web Request (the body is handed over already parsed). */
export function webRequest(req: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  return new Request('http://localhost/mcp', { method: 'POST', headers });
}
