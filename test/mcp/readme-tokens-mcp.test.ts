import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle } from '../helpers/article-factories.js';
import { makeToken } from './mcp-helpers.js';

/**
 * README "Access tokens" and "Assistants (MCP)" work as written: the curl lines run in bash against
 * a running service (only the README's address replaced), a write token passing all of them and a
 * read token refused on the write; the MCP client configuration, with a real token in place of the
 * README's placeholder, connects the SDK's client, which lists exactly the README's tools.
 */
const README = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md'), 'utf8');
const README_API = 'http://localhost:8000';
const PLACEHOLDER = 'ais_pat_…';
const run = promisify(execFile);

function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  expect(start, `README has "${heading}"`).toBeGreaterThan(0);
  const end = README.indexOf('\n## ', start + heading.length + 2);
  return README.slice(start, end < 0 ? undefined : end);
}
function block(text: string, lang: string): string {
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text);
  expect(m, `a \`\`\`${lang} block`).not.toBeNull();
  return m![1]!;
}

describe('the README’s access token and MCP examples, as written', () => {
  let t: TestApp;
  let apiUrl: string;
  let reader: { id: string; headers: Record<string, string> };
  let articleId: string;

  beforeAll(async () => {
    t = await buildTestApp();
    apiUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    reader = await t.login('user');
    articleId = (await makeArticle(t.container.database.db, { title: 'Logical qubits, at last' })).id;
  });
  afterAll(() => t?.close());

  /** each curl line of the README's block in bash: its exit code */
  async function curlLines(token: string): Promise<{ line: string; code: number }[]> {
    const lines = block(section('## Access tokens'), 'sh')
      .split('\n')
      .filter((l) => l.startsWith('curl '));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    const out: { line: string; code: number }[] = [];
    for (const line of lines) {
      expect(line).toContain(README_API);
      const code = await run('bash', ['-c', line.replaceAll(README_API, apiUrl)], {
        env: { ...process.env, TOKEN: token, ARTICLE_ID: articleId },
      }).then(
        () => 0,
        (e: { code?: number }) => e.code ?? -1,
      );
      out.push({ line, code });
    }
    return out;
  }

  it('Access tokens: a write token passes every line; a read token is refused on the write', async () => {
    const write = await curlLines((await makeToken(t, reader, 'write')).token);
    expect(write.map((r) => r.code)).toEqual(write.map(() => 0));
    const detail = await t.app.inject({ method: 'GET', url: '/me/unread-counts', headers: reader.headers });
    expect(detail.json<{ total: number }>().total).toBe(0);

    await t.app.inject({ method: 'DELETE', url: `/articles/${articleId}/read`, headers: reader.headers });
    const read = await curlLines((await makeToken(t, reader, 'read')).token);
    const refused = read.filter((r) => r.code !== 0);
    expect(refused.map((r) => r.line)).toEqual([read.find((r) => r.line.includes('-X PUT'))!.line]);
    // curl -f: an HTTP error is exit 22
    expect(refused[0]!.code).toBe(22);
  });

  it('Assistants (MCP): the client configuration connects, and the server has exactly the README’s tools', async () => {
    const text = section('## Assistants (MCP)');
    const config = JSON.parse(block(text, 'json')) as {
      mcpServers: Record<string, { type: string; url: string; headers: Record<string, string> }>;
    };
    const server = config.mcpServers['article-intel']!;
    expect(server.type).toBe('http');
    expect(server.url).toBe(`${README_API}/mcp`);
    // the one-line form names the same address and header
    expect(text).toContain(
      `--transport http article-intel ${server.url} --header "Authorization: Bearer ${PLACEHOLDER}"`,
    );

    const { token } = await makeToken(t, reader, 'read');
    const headers = Object.fromEntries(
      Object.entries(server.headers).map(([k, v]) => [k, v.replace(PLACEHOLDER, token)]),
    );
    const client = new Client({ name: 'readme', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url.replace(README_API, apiUrl)), {
        requestInit: { headers },
      }),
    );
    const { tools } = await client.listTools();
    const documented = [...text.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(tools.map((x) => x.name).sort()).toEqual([...documented].sort());
    await client.close();
  });
});
