import type { Feed as FeedClass } from 'feed';
import type { AtomFeed, AtomWriter } from '../../application/articles/articles.ports.js';

/** XML 1.0 forbids most control characters; a feed's text may carry them */
// eslint-disable-next-line no-control-regex
const clean = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

/**
 * The library writes entry titles and summaries as `type="html"` CDATA: plain text is escaped to
 * HTML first (a title "a <b> c" shows as written, and "]]>" can never end the CDATA early).
 */
const html = (s: string) => clean(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Atom 1.0 (RFC 4287) through the `feed` library. */
export class FeedAtomWriter implements AtomWriter {
  constructor(private readonly generator = 'Article Intelligence Service') {}

  /** the `feed` library (~1.3 MB of heap) is loaded on the first feed request */
  private lib: Promise<typeof FeedClass> | null = null;

  async write(f: AtomFeed): Promise<string> {
    this.lib ??= import('feed').then((m) => m.Feed);
    const Feed = await this.lib;
    const feed = new Feed({
      id: f.id,
      title: clean(f.title),
      ...(f.subtitle ? { description: clean(f.subtitle) } : {}),
      updated: f.updated,
      link: f.pageUrl,
      feedLinks: { atom: f.selfUrl },
      generator: this.generator,
      // atom:feed needs an author unless every entry has one
      author: { name: this.generator },
    });
    for (const e of f.entries)
      feed.addItem({
        id: e.id,
        title: html(e.title),
        link: e.url,
        date: e.updated,
        ...(e.published ? { published: e.published } : {}),
        ...(e.summary ? { description: html(e.summary) } : {}),
        ...(e.contentHtml ? { content: clean(e.contentHtml).replaceAll(']]>', ']]&gt;') } : {}),
        author: e.authors.map((name) => ({ name: clean(name) })),
        category: e.categories.map((term) => ({ name: clean(term), term: clean(term) })),
      });
    return feed.atom1();
  }
}
