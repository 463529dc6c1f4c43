/**
 * What the pipeline benches feed the service: article-like feed items, an RSS document of them, a
 * feed server on loopback, and the answers of the zero-latency model peer.
 */
import { HttpPeer } from '../../test/peers/http-peer.js';

export interface FeedItem {
  url: string;
  title: string;
  summary: string;
  published: string;
  author: string;
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

export function rssFeed(items: FeedItem[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Example RSS</title><link>https://news.example.org/</link><description>d</description>
${items
  .map(
    (i) => `<item><title>${esc(i.title)}</title><link>${esc(i.url)}</link>
<description>${esc(i.summary)}</description><dc:creator>${esc(i.author)}</dc:creator><pubDate>${i.published}</pubDate>
<guid isPermaLink="false">${esc(i.url)}#guid</guid></item>`,
  )
  .join('\n')}
</channel></rss>`;
}

/**
 * A hostile RSS document of about `bytes` (the fetch limit is 5 MB): `items` article-like items
 * among thousands of junk ones built to cost the parser (categories by the dozen, entities, a
 * `javascript:` link that the reader drops), so that its parse is long while its run stores few
 * articles.
 */
export function hostileFeed(bytes: number, items: FeedItem[]): string {
  const junk = (k: number) =>
    `<item><title>Junk &amp; &#233;&#x4e2d; ${k}</title><link>javascript:void(${k})</link>` +
    `<description>&lt;b&gt;x&lt;/b&gt; &amp;amp; ${k}</description>${'<category>c</category>'.repeat(12)}</item>\n`;
  const head = rssFeed(items).replace(/<\/channel><\/rss>$/, '');
  const parts = [head];
  let size = head.length + 16;
  for (let k = 0; size < bytes; k++) {
    const j = junk(k);
    if (size + j.length > bytes) break;
    parts.push(j);
    size += j.length;
  }
  parts.push('</channel></rss>');
  return parts.join('');
}

/** A feed server on loopback: path → RSS body. */
export async function startFeedServer(feeds: Record<string, string>): Promise<HttpPeer> {
  const peer = new HttpPeer((req, res) => {
    const body = feeds[req.path];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(body);
  });
  return peer.start();
}

/** a separate translation call (the pipeline asks one only when the analysis answer had no zh-TW part) */
export const isTranslationCall = (call: { messages: { role: string; content: string }[] }): boolean =>
  (call.messages[0]?.content ?? '').startsWith('Translate the article');

/**
 * What the fake model answers, told apart by the prompt: a separate translation's JSON, or the
 * one-call analysis (summary, tags, language and the zh-TW title and summary). With
 * `zhInAnalysis: false` the analysis answer has no zh-TW part, as from a model that ignores the
 * schema: the pipeline then asks for the translation in a second call.
 */
export function modelReply(
  call: { messages: { role: string; content: string }[] },
  opts: { zhInAnalysis?: boolean } = {},
): string {
  const user = call.messages[1]?.content ?? '';
  const system = call.messages[0]?.content ?? '';
  // a weekly report: each of the first three articles' summary, cited; its translation keeps the markers
  if (system.startsWith('You write the weekly research digest')) {
    const summaries = [...user.matchAll(/^ {4}summary: (.*)$/gm)].map((m) => m[1]!).slice(0, 3);
    return JSON.stringify({
      title: 'The week in the bench topic',
      summary_text: summaries.map((s, i) => `${s} [${i + 1}]`).join('\n\n') || 'A quiet week.',
    });
  }
  if (system.startsWith("Translate the JSON object's")) {
    const input = JSON.parse(user) as { title: string; summary_text: string };
    return JSON.stringify({ title: `譯：${input.title}`, summary_text: input.summary_text });
  }
  if (isTranslationCall(call)) {
    const input = JSON.parse(user) as { title: string; summary: string };
    return JSON.stringify({
      title: `譯：${input.title}`,
      summary: input.summary ? `摘要：${input.summary}` : '',
    });
  }
  const summary = 'A model summary of the article.';
  const title = /^Title: (.*)$/m.exec(user)?.[1] ?? '';
  return JSON.stringify({
    summary,
    tags: ['protein folding', 'attention'],
    language: 'en',
    ...(opts.zhInAnalysis === false ? {} : { zh_tw: { title: `譯：${title}`, summary: `摘要：${summary}` } }),
  });
}
