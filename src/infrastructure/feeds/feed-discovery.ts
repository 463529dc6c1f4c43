/**
 * Feed autodiscovery: the feeds an HTML page links to with `<link rel="alternate"
 * type="application/rss+xml | application/atom+xml | application/feed+json">` (or `rel="feed"`),
 * their addresses resolved against the page's `<base href>` and its URL. Read with htmlparser2's
 * tokenizer, like the page text (one linear pass, no regular expressions over markup): links inside
 * comments, scripts and styles are not links. The rules follow Firefox's discovery test page
 * (test/fixtures/feeds/discovery/mozilla-feed-discovery.html): `rel` is a case-insensitive token
 * list, `type` is trimmed and case-insensitive, `alternate stylesheet` is no feed, `feed stylesheet` is.
 */
import { Tokenizer } from 'htmlparser2';
import type { DiscoveredFeed } from '../../application/catalog/sources.ports.js';
import { cleanText, oneLine } from '../../domain/text.js';

/** a link's type; null for a `rel="feed"` link without one */
type DiscoveredType = NonNullable<DiscoveredFeed['type']>;

const FEED_TYPES: Record<string, DiscoveredType> = {
  'application/rss+xml': 'rss',
  'application/atom+xml': 'atom',
  'application/feed+json': 'json',
};
/** types a `rel="feed"` link may carry besides the feed types */
const GENERIC_XML = new Set(['application/xml', 'text/xml', 'application/rdf+xml']);
/** more links than any real page advertises: the rest are ignored */
const MAX_FEEDS = 50;
const MAX_TITLE = 200;

function resolve(href: string, base: string): string | null {
  try {
    const u = new URL(href.trim(), base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

function feedOf(attrs: Map<string, string>, base: string): DiscoveredFeed | null {
  const rel = (attrs.get('rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
  const rawType = attrs.get('type');
  const type = rawType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const known = FEED_TYPES[type] ?? null;
  const isFeed = rel.includes('feed')
    ? !rawType || known !== null || GENERIC_XML.has(type)
    : rel.includes('alternate') && !rel.includes('stylesheet') && known !== null;
  const href = attrs.get('href');
  if (!isFeed || !href) return null;
  const url = resolve(href, base);
  if (!url) return null;
  const title = cleanText(oneLine(attrs.get('title') ?? '')).slice(0, MAX_TITLE) || null;
  return { url, title, type: known };
}

/** The feeds an HTML page advertises, in document order, each address once. */
export function discoverFeeds(html: string, pageUrl: string): DiscoveredFeed[] {
  const links: Map<string, string>[] = [];
  let base: string | null = null;
  let tag = '';
  let attrs = new Map<string, string>();
  let attrName = '';
  let attrValue = '';
  const noop = () => undefined;
  const endTag = () => {
    if (tag === 'link') links.push(attrs);
    else if (tag === 'base' && base === null && attrs.has('href')) base = attrs.get('href')!;
    tag = '';
  };
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      oncdata: noop,
      oncomment: noop,
      ondeclaration: noop,
      onend: noop,
      onprocessinginstruction: noop,
      ontext: noop,
      ontextentity: noop,
      onclosetag: noop,
      onopentagname: (start, end) => {
        tag = html.slice(start, end).toLowerCase();
        attrs = new Map();
      },
      onattribname: (start, end) => {
        attrName = html.slice(start, end).toLowerCase();
        attrValue = '';
      },
      onattribdata: (start, end) => {
        attrValue += html.slice(start, end);
      },
      onattribentity: (codepoint) => {
        attrValue += String.fromCodePoint(codepoint);
      },
      onattribend: () => {
        // the first of a repeated attribute wins, as in a browser
        if ((tag === 'link' || tag === 'base') && !attrs.has(attrName)) attrs.set(attrName, attrValue);
      },
      onopentagend: endTag,
      onselfclosingtag: endTag,
    },
  );
  tokenizer.write(html);
  tokenizer.end();

  const baseUrl = (base !== null && resolve(base, pageUrl)) || pageUrl;
  const seen = new Set<string>();
  const feeds: DiscoveredFeed[] = [];
  for (const link of links) {
    const feed = feedOf(link, baseUrl);
    if (!feed || seen.has(feed.url)) continue;
    seen.add(feed.url);
    feeds.push(feed);
    if (feeds.length >= MAX_FEEDS) break;
  }
  return feeds;
}

/** Whether a fetched document is an HTML page rather than a feed (by its type, else its start). */
export function looksLikeHtml(contentType: string | null, body: string): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return true;
  const head = body
    .slice(0, 1024)
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}
