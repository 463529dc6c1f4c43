import type { FastifyInstance } from 'fastify';
import { HttpPeer } from '../peers/http-peer.js';
import { canonicalizeUrl, normalizeTitle } from '../../src/domain/identifiers.js';
import type { NewArticle } from '../../src/application/pipeline/pipeline.ports.js';

export interface FeedItem {
  url: string;
  title: string;
  summary?: string;
  content?: string;
  doi?: string;
  published?: string;
  author?: string;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

let n = 0;
/** An article-like item with enough text for the analyzers. */
export function makeItem(overrides: Partial<FeedItem> = {}): FeedItem {
  n++;
  return {
    url: `https://news.example.org/articles/${n}-${Math.random().toString(36).slice(2, 8)}`,
    title: `Sparse attention speeds up protein folding models, study ${n}`,
    summary:
      `Researchers report that sparse attention cuts the memory of protein folding models. ` +
      `The method keeps accuracy on benchmark ${n} while running faster. ` +
      `Protein structure prediction with sparse attention could reach larger complexes.`,
    published: new Date(Date.UTC(2026, 10, 1 + (n % 20))).toUTCString(),
    author: 'A. Researcher',
    ...overrides,
  };
}

/** The stored row of an item as a scraper run would insert it (tests and benches that skip the fetch). */
export function articleRow(
  it: FeedItem,
  ids: { topicId: string; sourceId: string; runId: string },
): NewArticle {
  return {
    ...ids,
    source: 'Feed',
    url: it.url,
    canonicalUrl: canonicalizeUrl(it.url),
    title: it.title,
    normalizedTitle: normalizeTitle(it.title),
    author: null,
    content: it.summary ?? null,
    publishedAt: null,
    doi: null,
    arxivId: null,
    metadata: {},
  };
}

export function rssFeed(items: FeedItem[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Example RSS</title><link>https://news.example.org/</link><description>d</description>
${items
  .map(
    (i) => `<item><title>${esc(i.title)}</title><link>${esc(i.url)}</link>
<description>${esc(i.summary ?? '')}</description>${i.content ? `<content:encoded><![CDATA[${i.content}]]></content:encoded>` : ''}
${i.author ? `<dc:creator>${esc(i.author)}</dc:creator>` : ''}${i.published ? `<pubDate>${i.published}</pubDate>` : ''}
${i.doi ? `<dc:identifier>doi:${i.doi}</dc:identifier>` : ''}<guid isPermaLink="false">${esc(i.url)}#guid</guid></item>`,
  )
  .join('\n')}
</channel></rss>`;
}

export function atomFeed(items: FeedItem[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Example Atom</title><id>urn:example</id><updated>2026-11-01T00:00:00Z</updated>
${items
  .map(
    (i) => `<entry><title type="html">${esc(i.title)}</title><link rel="alternate" href="${esc(i.url)}"/>
<id>urn:uuid:${esc(i.url)}</id><updated>2026-11-02T00:00:00Z</updated>${i.published ? `<published>${new Date(i.published).toISOString()}</published>` : ''}
<summary type="html">${esc(i.summary ?? '')}</summary>${i.author ? `<author><name>${esc(i.author)}</name></author>` : ''}</entry>`,
  )
  .join('\n')}
</feed>`;
}

export function jsonFeed(items: FeedItem[]): string {
  return JSON.stringify({
    version: 'https://jsonfeed.org/version/1.1',
    title: 'Example JSON Feed',
    items: items.map((i) => ({
      id: i.url,
      url: i.url,
      title: i.title,
      summary: i.summary,
      content_html: i.content,
      date_published: i.published ? new Date(i.published).toISOString() : undefined,
      authors: i.author ? [{ name: i.author }] : undefined,
    })),
  });
}

/** The arXiv API's Atom answer (export.arxiv.org/api/query). */
export function arxivFeed(papers: { id: string; title: string; summary: string; doi?: string }[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
<title>arXiv Query</title><id>http://arxiv.org/api/x</id><opensearch:totalResults>${papers.length}</opensearch:totalResults>
${papers
  .map(
    (
      p,
    ) => `<entry><id>http://arxiv.org/abs/${p.id}v2</id><updated>2026-11-02T00:00:00Z</updated><published>2026-11-01T00:00:00Z</published>
<title>${esc(p.title)}</title><summary>  ${esc(p.summary)}
</summary><author><name>Ada Lovelace</name></author><author><name>Alan Turing</name></author>
${p.doi ? `<arxiv:doi>${p.doi}</arxiv:doi><link title="doi" href="https://doi.org/${p.doi}" rel="related"/>` : ''}
<link href="http://arxiv.org/abs/${p.id}v2" rel="alternate" type="text/html"/><link title="pdf" href="http://arxiv.org/pdf/${p.id}v2" rel="related" type="application/pdf"/>
<arxiv:primary_category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/><category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/></entry>`,
  )
  .join('\n')}
</feed>`;
}

/** A feed server on loopback: path → body (content type from the body). */
export async function startFeedServer(feeds: Record<string, string>): Promise<HttpPeer> {
  const peer = new HttpPeer((req, res) => {
    const body = feeds[req.path];
    if (body === undefined) return void res.writeHead(404).end();
    const type = body.trimStart().startsWith('{')
      ? 'application/feed+json'
      : body.includes('<rss')
        ? 'application/rss+xml'
        : 'application/atom+xml';
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  return peer.start();
}

/** Creates a topic, its sources and (optionally) an active text provider through the admin API. */
export async function seedPipeline(
  app: FastifyInstance,
  headers: Record<string, string>,
  opts: { sources: { name: string; url: string; kind?: 'rss' | 'arxiv' }[]; providerBaseUrl?: string },
): Promise<{ topicId: string; sourceIds: string[] }> {
  const topic = await app.inject({
    method: 'POST',
    url: '/admin/topics',
    headers,
    payload: { name: `Topic ${Math.random().toString(36).slice(2, 8)}` },
  });
  if (topic.statusCode !== 201) throw new Error(`topic: ${topic.body}`);
  const topicId = topic.json<{ id: string }>().id;
  const sourceIds: string[] = [];
  for (const s of opts.sources) {
    const r = await app.inject({
      method: 'POST',
      url: '/admin/sources',
      headers,
      // the pipeline tests' feeds may be built to fail: saved without the feed check (force)
      payload: { topic_id: topicId, name: s.name, kind: s.kind ?? 'rss', url: s.url, force: true },
    });
    if (r.statusCode !== 201) throw new Error(`source: ${r.body}`);
    sourceIds.push(r.json<{ id: string }>().id);
  }
  if (opts.providerBaseUrl) {
    const p = await app.inject({
      method: 'POST',
      url: '/admin/providers',
      headers,
      payload: { name: 'peer', type: 'text', base_url: opts.providerBaseUrl, model: 'm', is_active: true },
    });
    if (p.statusCode !== 201) throw new Error(`provider: ${p.body}`);
  }
  return { topicId, sourceIds };
}

// the model peer's answers are the bench's (one copy): analysis with or without the zh-TW part
export { isTranslationCall, modelReply } from '../../bench/support/feed-items.js';

/** A container whose logger writes JSON lines to memory (and to the log tap), for log assertions. */
export async function buildLoggedContainer(env: Record<string, string>) {
  const { Writable } = await import('node:stream');
  const { loadConfig } = await import('../../src/config.js');
  const { createContainer } = await import('../../src/composition/container.js');
  const { createLogger } = await import('../../src/infrastructure/logging/logger.js');
  const { LogTap } = await import('../../src/infrastructure/logging/log-tap.js');
  const { ScryptHasher } = await import('../../src/infrastructure/auth/scrypt-hasher.js');
  const { createTestDatabase } = await import('./db.js');
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString('utf8').split('\n'))
        if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  const config = loadConfig({
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    DATA_DIR: '/tmp/article-intel-test',
    LOG_LEVEL: 'info',
    SCHEDULER_ENABLED: 'false',
    ...env,
  });
  const logTap = new LogTap();
  const logger = createLogger({
    level: 'info',
    service: config.serviceName,
    environment: config.deploymentEnvironment,
    destination,
    tap: logTap,
  });
  const database = await createTestDatabase();
  const container = await createContainer(config, {
    database,
    logger,
    logTap,
    hasher: new ScryptHasher({ N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }),
  });
  const catalog = container.services.catalog;
  return {
    container,
    lines,
    async seed(sources: { name: string; url: string; kind?: 'rss' | 'arxiv' }[], providerBaseUrl?: string) {
      const topic = await catalog.createTopic({ name: `Topic ${Math.random().toString(36).slice(2, 8)}` });
      for (const s of sources)
        await catalog.createSource({ topic_id: topic.id, name: s.name, kind: s.kind ?? 'rss', url: s.url });
      if (providerBaseUrl)
        await catalog.createProvider({
          name: 'peer',
          type: 'text',
          base_url: providerBaseUrl,
          model: 'm',
          is_active: true,
        });
      return topic.id;
    },
    async close() {
      await container.close();
      await database.close();
    },
  };
}
