import type { AtomFeed, AtomWriter } from '../../application/articles/articles.ports.js';
import { XmlWriter } from './xml-writer.js';

const ATOM_NS = 'http://www.w3.org/2005/Atom';

/**
 * Atom 1.0 (RFC 4287) written element by element through XmlWriter, which escapes every text and
 * attribute value. Titles, summaries, tags and author names are plain text (`type="text"`, the
 * default), so a tag `a<b` or a title with `]]>` reaches the reader exactly as written; content is
 * the sanitised HTML as escaped text (`type="html"`).
 */
export class FeedAtomWriter implements AtomWriter {
  constructor(private readonly generator = 'Article Intelligence Service') {}

  async write(f: AtomFeed): Promise<string> {
    const x = new XmlWriter();
    x.start('feed', { xmlns: ATOM_NS });
    x.element('id', {}, f.id);
    x.element('title', { type: 'text' }, f.title);
    if (f.subtitle) x.element('subtitle', { type: 'text' }, f.subtitle);
    x.element('updated', {}, f.updated.toISOString());
    x.element('link', { rel: 'self', type: 'application/atom+xml', href: f.selfUrl });
    x.element('link', { rel: 'alternate', type: 'text/html', href: f.pageUrl });
    x.element('generator', {}, this.generator);
    // atom:feed needs an author unless every entry has one
    x.start('author').element('name', {}, this.generator).end();
    for (const e of f.entries) {
      x.start('entry');
      x.element('id', {}, e.id);
      x.element('title', { type: 'text' }, e.title);
      x.element('link', { rel: 'alternate', href: e.url });
      x.element('updated', {}, e.updated.toISOString());
      if (e.published) x.element('published', {}, e.published.toISOString());
      for (const name of e.authors) x.start('author').element('name', {}, name).end();
      for (const term of e.categories) x.element('category', { term, label: term });
      if (e.summary) x.element('summary', { type: 'text' }, e.summary);
      if (e.contentHtml) x.element('content', { type: 'html' }, e.contentHtml);
      x.end();
    }
    x.end();
    return x.toString();
  }
}
