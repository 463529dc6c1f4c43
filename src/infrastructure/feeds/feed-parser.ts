/**
 * Parses RSS 2.0 (and RSS 1.0/RDF), Atom, the arXiv API (Atom with arxiv: elements) and JSON Feed
 * into feed entries.
 */
import { XMLParser } from 'fast-xml-parser';
import type { FeedEntry } from '../../application/pipeline/pipeline.ports.js';
import { extractArxivId, extractDoi } from '../../application/pipeline/dedup.js';

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  textNodeName: '#text',
  processEntities: true,
  htmlEntities: true,
  trimValues: true,
  isArray: (name) => ['item', 'entry', 'link', 'author', 'category', 'creator'].includes(name),
});

type Node = Record<string, unknown>;

function txt(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return txt(v[0]);
  if (typeof v === 'object') return txt((v as Node)['#text']);
  return null;
}

function date(v: unknown): Date | null {
  const s = txt(v);
  if (!s) return null;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? null : d;
}

const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

function absolute(href: string | null, base: string): string | null {
  if (!href) return null;
  try {
    return new URL(href, base).toString();
  } catch {
    return null;
  }
}

type Draft = Partial<Omit<FeedEntry, 'url' | 'title'>> & { url: string | null; title: string | null };

function entryOf(e: Draft): FeedEntry | null {
  if (!e.url) return null;
  return {
    url: e.url,
    title: e.title ?? '',
    summary: e.summary ?? null,
    content: e.content ?? null,
    author: e.author ?? null,
    publishedAt: e.publishedAt ?? null,
    doi: e.doi ?? extractDoi(e.url),
    arxivId: e.arxivId ?? extractArxivId(e.url),
    categories: e.categories ?? [],
  };
}

function rssItem(item: Node, base: string): FeedEntry | null {
  const guid = item.guid as Node | string | undefined;
  const guidIsLink = typeof guid === 'object' && guid?.['@_isPermaLink'] !== 'false';
  const link = txt(item.link) ?? (guidIsLink || typeof guid === 'string' ? txt(guid) : null);
  const dcId = txt(item.identifier);
  return entryOf({
    url: absolute(link, base),
    title: txt(item.title),
    summary: txt(item.description),
    content: txt(item.encoded),
    author: txt(item.creator) ?? txt(item.author),
    publishedAt: date(item.pubDate) ?? date(item.date),
    doi: extractDoi(txt(item.doi), dcId),
    categories: arr(item.category)
      .map(txt)
      .filter((c): c is string => !!c),
  });
}

function atomEntry(entry: Node, base: string): FeedEntry | null {
  const links = arr(entry.link) as Node[];
  const href = (l: Node | undefined) => (l ? txt(l['@_href']) : null);
  const alternate = links.find((l) => !l['@_rel'] || l['@_rel'] === 'alternate');
  const id = txt(entry.id);
  const url = absolute(href(alternate) ?? href(links[0]) ?? (id?.startsWith('http') ? id : null), base);
  const authors = (arr(entry.author) as Node[]).map((a) => txt(a.name)).filter((a): a is string => !!a);
  const doiLink = links.find((l) => l['@_title'] === 'doi');
  return entryOf({
    url,
    title: txt(entry.title)?.replace(/\s+/g, ' ') ?? null,
    summary: txt(entry.summary),
    content: txt(entry.content),
    author: authors.length ? authors.join(', ') : null,
    publishedAt: date(entry.published) ?? date(entry.updated),
    // arXiv API: <arxiv:doi>, and the abs URL in <id>
    doi: extractDoi(txt(entry.doi), href(doiLink)),
    arxivId: extractArxivId(id, url),
    categories: (arr(entry.category) as Node[]).map((c) => txt(c['@_term'])).filter((c): c is string => !!c),
  });
}

function jsonFeed(feed: Node, base: string): FeedEntry[] {
  const items = arr(feed.items) as Node[];
  return items
    .map((i) => {
      const authors = [...arr(i.authors), ...arr(i.author)] as Node[];
      return entryOf({
        url: absolute(
          txt(i.url) ?? txt(i.external_url) ?? (txt(i.id)?.startsWith('http') ? txt(i.id) : null),
          base,
        ),
        title: txt(i.title),
        summary: txt(i.summary),
        content: txt(i.content_html) ?? txt(i.content_text),
        author:
          authors
            .map((a) => txt(a.name))
            .filter(Boolean)
            .join(', ') || null,
        publishedAt: date(i.date_published) ?? date(i.date_modified),
        categories: arr(i.tags)
          .map(txt)
          .filter((c): c is string => !!c),
      });
    })
    .filter((e): e is FeedEntry => e !== null);
}

export class FeedFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedFormatError';
  }
}

/** The entries of an RSS, Atom, arXiv or JSON feed; relative links resolve against `baseUrl`. */
export function parseFeed(body: string, baseUrl: string): FeedEntry[] {
  const text = body.replace(/^\uFEFF/, '').trim();
  if (text.startsWith('{')) {
    let json: Node;
    try {
      json = JSON.parse(text) as Node;
    } catch {
      throw new FeedFormatError('invalid JSON feed');
    }
    if (!Array.isArray(json.items)) throw new FeedFormatError('a JSON feed needs an items array');
    return jsonFeed(json, baseUrl);
  }
  let doc: Node;
  try {
    doc = parser.parse(text) as Node;
  } catch (err) {
    throw new FeedFormatError(`invalid XML: ${(err as Error).message}`);
  }
  const rss = doc.rss as Node | undefined;
  if (rss) {
    const channel = (Array.isArray(rss.channel) ? rss.channel[0] : rss.channel) as Node | undefined;
    return (arr(channel?.item) as Node[]).map((i) => rssItem(i, baseUrl)).filter((e): e is FeedEntry => !!e);
  }
  const rdf = doc.RDF as Node | undefined;
  if (rdf)
    return (arr(rdf.item) as Node[]).map((i) => rssItem(i, baseUrl)).filter((e): e is FeedEntry => !!e);
  const feed = doc.feed as Node | undefined;
  if (feed)
    return (arr(feed.entry) as Node[]).map((e) => atomEntry(e, baseUrl)).filter((e): e is FeedEntry => !!e);
  throw new FeedFormatError('not an RSS, Atom or JSON feed');
}
