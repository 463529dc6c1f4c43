import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { buildWebServer } from '../../src/web/web-server.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { insertArticle, insertReport, insertTopic } from '../helpers/report-factories.js';
import { makeToken } from './mcp-helpers.js';

const run = promisify(execFile);

/**
 * The MCP Inspector's command line (`@modelcontextprotocol/inspector --cli`), a client we did not
 * write, against the service listening on loopback, at the api's and at the web role's address. The
 * Inspector is large (a web UI with React and Vite, ~150 MB) so it is not a dependency: install it
 * anywhere (`npm install @modelcontextprotocol/inspector@0.17.5` in a scratch directory) and point
 * MCP_INSPECTOR_CLI at its `cli/build/cli.js`; without it this file is skipped.
 */
const CLI = process.env.MCP_INSPECTOR_CLI;

describe.skipIf(!CLI)('MCP Inspector CLI lists the tools and calls each', () => {
  let t: TestApp;
  let web: FastifyInstance;
  const urls: Record<string, string> = {};
  let write = '';
  let read = '';
  let article: { id: string; url: string; title: string };
  let other: { url: string };
  let topic: { id: string; slug: string };

  beforeAll(async () => {
    t = await buildTestApp();
    urls.api = `${await t.app.listen({ host: '127.0.0.1', port: 0 })}/mcp`;
    web = await buildWebServer(pino({ level: 'silent' }), {
      apiUrl: urls.api.replace(/\/mcp$/, ''),
      trustedProxies: ['127.0.0.1'],
      timeoutMs: 10_000,
      distDir: '/nonexistent-dist',
      secureCookie: false,
    });
    urls.web = `${await web.listen({ host: '127.0.0.1', port: 0 })}/mcp`;
    const db = t.container.database.db;
    topic = await insertTopic(db, 'Tokamaks');
    const at = new Date(Date.UTC(2025, 0, 7, 12));
    article = await insertArticle(db, topic.id, {
      title: 'A tokamak holds plasma for an hour',
      publishedAt: at,
    });
    other = await insertArticle(db, topic.id, { title: 'Tokamak walls of tungsten', publishedAt: at });
    await insertReport(db, {
      topicId: topic.id,
      weekStartDate: '2025-01-06',
      title: 'Longer pulses',
      articleIds: [article.id],
    });
    const reader = await t.login('user');
    write = (await makeToken(t, reader, 'write')).token;
    read = (await makeToken(t, reader, 'read')).token;
  }, 60_000);
  afterAll(async () => {
    await web?.close();
    await t?.close();
  });

  /** one Inspector run: its JSON answer */
  const inspector = async (url: string, token: string, method: string, tool?: [string, ...string[]]) => {
    const args = [CLI!, '--cli', url, '--transport', 'http', '--header', `Authorization: Bearer ${token}`];
    args.push('--method', method);
    if (tool) {
      args.push('--tool-name', tool[0]);
      for (const a of tool.slice(1)) args.push('--tool-arg', a);
    }
    const { stdout } = await run(process.execPath, args, { timeout: 60_000 });
    return JSON.parse(stdout) as {
      tools?: { name: string }[];
      isError?: boolean;
      content?: { type: string; text: string }[];
      structuredContent?: Record<string, unknown>;
    };
  };

  for (const at of ['api', 'web'] as const)
    it(`at the ${at} role's address`, async () => {
      const url = urls[at]!;
      const listed = await inspector(url, read, 'tools/list');
      expect(listed.tools!.map((x) => x.name).sort()).toEqual([
        'get_article',
        'get_weekly_report',
        'list_topics',
        'mark_read',
        'search_articles',
        'set_favorite',
        'similar_articles',
      ]);
      const calls: [string, ...string[]][] = [
        ['search_articles', 'query=tokamak', `topic=${topic.slug}`, 'limit=5'],
        ['get_article', `id=${article.id}`],
        ['list_topics'],
        ['get_weekly_report', `topic=${topic.id}`, 'week=2025-01-08'],
        ['similar_articles', `id=${article.id}`],
        ['mark_read', `id=${article.id}`],
        ['set_favorite', `id=${article.id}`],
      ];
      // every tool at the api's address; at the web role's, which forwards /mcp as it is, one that
      // reads and one that writes (each Inspector run is a Node process of ~1 CPU-s)
      const asked =
        at === 'api' ? calls : calls.filter((c) => ['search_articles', 'mark_read'].includes(c[0]));
      for (const c of asked) {
        const r = await inspector(url, write, 'tools/call', c);
        expect(r.isError ?? false, `${c[0]}: ${JSON.stringify(r.content)}`).toBe(false);
        // every answer names its articles by their URL (the topics list names its feed URLs)
        const cited = { list_topics: topic.slug, similar_articles: other.url }[c[0]] ?? article.url;
        expect(r.content![0]!.text, c[0]).toContain(cited);
      }
      const refused = await inspector(url, read, 'tools/call', ['mark_read', `id=${article.id}`]);
      expect(refused.isError).toBe(true);
      expect(refused.content![0]!.text).toMatch(/^token_read_only:/);
      // a bad token: the Inspector fails to connect (401)
      await expect(inspector(url, 'ais_pat_0000000000_x', 'tools/list')).rejects.toThrow();
    }, 180_000);
  it('the README’s Inspector lines, as written', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = /## Assistants \(MCP\)[\s\S]*?(?=\n## )/.exec(readme)![0];
    const lines = /```sh\n([\s\S]*?)```/
      .exec(section)![1]!
      .split('\n')
      .filter((l) => l.startsWith('npx @modelcontextprotocol/inspector'));
    expect(lines).toHaveLength(2);
    const answers = [];
    for (const line of lines) {
      const cmd = line
        .replace(/^npx @modelcontextprotocol\/inspector@[\d.]+/, `"${process.execPath}" "${CLI}"`)
        .replace('http://localhost:8000/mcp', urls.api!);
      const { stdout } = await run('bash', ['-c', cmd], {
        env: { ...process.env, TOKEN: read },
        timeout: 60_000,
      });
      answers.push(
        JSON.parse(stdout) as { tools?: unknown[]; isError?: boolean; content?: { text: string }[] },
      );
    }
    expect(answers[0]!.tools).toHaveLength(7);
    expect(answers[1]!.isError ?? false).toBe(false);
    expect(answers[1]!.content![0]!.text).toContain('"items"');
  }, 120_000);
});
