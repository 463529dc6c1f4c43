import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { TestApp } from '../helpers/app.js';

/** A personal access token of the signed-in owner, made through the API as Settings does. */
export async function makeToken(
  t: TestApp,
  owner: { headers: Record<string, string> },
  scope: 'read' | 'write',
): Promise<{ id: string; token: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/user/tokens',
    headers: owner.headers,
    payload: { name: `mcp ${scope} ${Math.random()}`, scope },
  });
  if (res.statusCode !== 201) throw new Error(`token not created: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string; token: string }>();
}

/** The SDK's own client on the SDK's Streamable HTTP client transport, with the token as Bearer. */
export async function connect(mcpUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: 'article-intel-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** A tool's structured answer; throws with the tool's error text when it failed. */
export async function call<T>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  // the text block and the structured content say the same
  const text = r.content.find((c) => c.type === 'text');
  if (!text || text.type !== 'text') throw new Error(`${name}: no text content`);
  const parsed = JSON.parse(text.text) as T;
  if (JSON.stringify(parsed) !== JSON.stringify(r.structuredContent))
    throw new Error(`${name}: text and structured content differ`);
  return parsed;
}

/** A tool call that must fail: its error text. */
export async function callError(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!r.isError) throw new Error(`${name} succeeded: ${JSON.stringify(r.structuredContent)}`);
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
