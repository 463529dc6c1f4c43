/**
 * feedsmith's items (RSS 0.9x/2.0, RDF, Atom 0.3/1.0, JSON Feed) to FeedEntry, with the project's
 * normalisation: titles and summaries as one line of plain text, core elements first and namespaced
 * ones (itunes:, media:, atom:, dc:) only as fallbacks, links resolved against xml:base and the
 * document URL, every string cleaned of control characters.
 */
import type { AtomFeed, JsonFeed, MediaNs, RdfFeed, RssFeed } from 'feedsmith';
import type { FeedEntry } from '../../application/pipeline/pipeline.ports.js';
import { extractArxivId } from '../../domain/identifiers.js';
import { extractDoi } from '../../domain/doi.js';
import { inlineHtmlToText } from '../../application/shared/text/html-to-text.js';
import { cleanOptional, cleanText, oneLine } from '../../domain/text.js';

type RssItem = RssFeed.Item<string>;
type RdfItem = RdfFeed.Item<string>;
type AtomEntry = AtomFeed.Entry<string>;
type AtomText = { value: string; type?: string };
type JsonItem = JsonFeed.Item<string>;

/** plain text: one line, controls removed, null when empty */
export const plain = (s: string | null | undefined): string | null =>
  s ? cleanText(oneLine(s)) || null : null;
/** text that may carry markup (RSS titles and descriptions, Atom html/xhtml) */
export const fromHtml = (s: string | null | undefined): string | null =>
  s ? plain(inlineHtmlToText(s)) : null;
/** an Atom text construct: `text` is plain, `html` is escaped markup, `xhtml` is inline markup */
export const atomText = (t: AtomText | undefined): string | null =>
  !t ? null : (t.type ?? 'text').toLowerCase() === 'text' ? plain(t.value) : fromHtml(t.value);
/** full content kept as markup or text, only cleaned */
const content = (s: string | null | undefined): string | null => cleanOptional(s?.trim());

function date(...values: (string | null | undefined)[]): Date | null {
  for (const v of values) {
    if (!v) continue;
    const d = new Date(v.trim());
    if (!Number.isNaN(d.getTime())) return d;
  }
  return null;
}

function absolute(href: string | null | undefined, ...bases: (string | null | undefined)[]): string | null {
  if (!href) return null;
  let base: string | undefined;
  for (const b of bases.slice().reverse()) {
    if (!b) continue;
    try {
      base = new URL(b, base).toString();
    } catch {
      // an unusable xml:base is ignored
    }
  }
  try {
    const url = new URL(href.trim(), base);
    // tag:, mailto:, javascript: and the like are no article address
    return url.protocol === 'http:' || url.protocol === 'https:' ? cleanText(url.toString()) : null;
  } catch {
    return null;
  }
}

const names = (values: (string | null | undefined)[]): string | null =>
  values.map(plain).filter(Boolean).join(', ') || null;

const tags = (values: (string | null | undefined)[]): string[] => [
  ...new Set(values.map(plain).filter((c): c is string => !!c)),
];

/** media:description of the item, its group or its first content */
function mediaText(m: MediaNs.ItemOrFeed | undefined, field: 'title' | 'description'): string | null {
  const t = m?.[field] ?? m?.groups?.[0]?.[field] ?? m?.contents?.[0]?.[field];
  return t ? (t.type === 'html' ? fromHtml(t.value) : plain(t.value)) : null;
}

/**
 * Bounds on what one entry may carry. The title (through its normalized form) and the canonical URL
 * are btree-indexed, and PostgreSQL refuses an index row over ~2.7 kB, which would fail the whole
 * multi-row insert of a run: a longer title is cut at a word, an entry with a longer URL is refused.
 */
export const LIMITS = { title: 500, url: 2000, author: 500, category: 100, categories: 50 } as const;

function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const head = s.slice(0, max - 1);
  const space = head.lastIndexOf(' ');
  return `${space > max / 2 ? head.slice(0, space) : head}…`;
}

function entry(
  e: Omit<FeedEntry, 'doi' | 'arxivId'> & { doi: string | null; arxivId?: string | null },
): FeedEntry | null {
  if (e.url.length > LIMITS.url) return null;
  return {
    ...e,
    title: cut(e.title, LIMITS.title),
    author: e.author === null ? null : cut(e.author, LIMITS.author),
    categories: e.categories.slice(0, LIMITS.categories).map((c) => cut(c, LIMITS.category)),
    doi: e.doi ?? extractDoi(e.url),
    arxivId: e.arxivId ?? extractArxivId(e.url),
  };
}

/** An RSS 0.9x/2.0 item; an RDF (RSS 0.90/1.0) item has the same core. */
export function rssEntry(item: RssItem | RdfItem, base: string, feedBase?: string): FeedEntry | null {
  const rss = item as RssItem;
  const guid = rss.guid;
  const permalink =
    guid?.value && guid.isPermaLink !== false && /^https?:/i.test(guid.value) ? guid.value : null;
  const alternate = item.atom?.links?.find((l) => !l.rel || l.rel === 'alternate')?.href;
  const itemBase = item.xml?.base;
  const url = absolute(
    item.link ?? permalink ?? alternate ?? (item as RdfItem).rdf?.about,
    itemBase,
    feedBase,
    base,
  );
  if (!url) return null;
  const dc = item.dc;
  return entry({
    url,
    title:
      fromHtml(item.title) ??
      plain(rss.itunes?.title) ??
      mediaText(item.media, 'title') ??
      plain(dc?.titles?.[0]) ??
      '',
    summary:
      fromHtml(item.description) ??
      fromHtml(rss.itunes?.summary) ??
      mediaText(item.media, 'description') ??
      plain(rss.itunes?.subtitle) ??
      fromHtml(dc?.descriptions?.[0]),
    content: content(item.content?.encoded),
    html: content(item.content?.encoded) ?? content(item.description),
    author:
      names(dc?.creators ?? []) ??
      names((rss.authors ?? []).map((a) => a.name ?? a.email)) ??
      plain(rss.itunes?.author),
    publishedAt: date(rss.pubDate, dc?.dates?.[0], rss.prism?.publicationDates?.[0]),
    doi: extractDoi(rss.prism?.doi, ...(dc?.identifiers ?? [])),
    categories: tags([...(rss.categories ?? []).map((c) => c.name), ...(dc?.subjects ?? [])]),
  });
}

/** An Atom 1.0 or 0.3 entry (0.3's issued/modified arrive as published/updated), arXiv's included. */
export function atomEntry(e: AtomEntry, base: string, feedBase?: string): FeedEntry | null {
  const links = e.links ?? [];
  const alternate = links.find((l) => !l.rel || l.rel === 'alternate') ?? links.find((l) => l.rel !== 'self');
  const id = e.id?.trim();
  const url = absolute(
    alternate?.href ?? (id && /^https?:/i.test(id) ? id : null),
    e.xml?.base,
    feedBase,
    base,
  );
  if (!url) return null;
  const body = e.content;
  return entry({
    url,
    title: atomText(e.title) ?? plain(e.itunes?.title) ?? mediaText(e.media, 'title') ?? '',
    summary: atomText(e.summary) ?? fromHtml(e.itunes?.summary) ?? mediaText(e.media, 'description'),
    // html and xhtml content arrive as markup, text content as text; a `src` reference is not read
    content: body && !body.src ? content(body.value) : null,
    author: names((e.authors ?? []).map((a) => a.name)) ?? names(e.dc?.creators ?? []),
    publishedAt: date(e.published, e.updated, e.dc?.dates?.[0]),
    doi: extractDoi(e.arxiv?.doi, links.find((l) => l.title === 'doi')?.href, ...(e.dc?.identifiers ?? [])),
    arxivId: extractArxivId(id, url),
    categories: tags((e.categories ?? []).map((c) => c.term ?? c.label)),
  });
}

/** A JSON Feed 1.0/1.1 item: title and summary are plain text by the spec. */
export function jsonEntry(i: JsonItem, base: string): FeedEntry | null {
  const id = typeof i.id === 'string' ? i.id : null;
  const url = absolute(i.url ?? i.external_url ?? (id && /^https?:/i.test(id) ? id : null), base);
  if (!url) return null;
  const legacy = (i as { author?: { name?: string } }).author;
  return entry({
    url,
    title: plain(i.title) ?? '',
    summary: plain(i.summary),
    content: content(i.content_html) ?? content(i.content_text),
    author: names([...(i.authors ?? []).map((a) => a.name), legacy?.name]),
    publishedAt: date(i.date_published, i.date_modified),
    doi: null,
    categories: tags(i.tags ?? []),
  });
}
