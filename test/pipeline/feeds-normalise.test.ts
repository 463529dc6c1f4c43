import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { extractPage, htmlToText, inlineHtmlToText } from '../../src/application/shared/text/html-to-text.js';
import { cleanText } from '../../src/domain/text.js';
import { decodeBody, headerCharset } from '../../src/infrastructure/feeds/charset.js';
import { FeedFormatError, parseFeed } from '../../src/infrastructure/feeds/feed-parser.js';

const base = 'https://feeds.example/';
const rss = (items: string, ns = '') =>
  `<?xml version="1.0"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/" ${ns}><channel><title>c</title>${items}</channel></rss>`;

describe('feed normalisation', () => {
  it('keeps strings as strings and core elements over namespaced ones placed first', () => {
    const [a, b] = parseFeed(
      rss(
        `<item><itunes:title>Podcast name</itunes:title><atom:link href="https://bad.example/x"/><title>1.10</title><link>https://a.example/1</link></item>` +
          `<item><title>007</title><link>https://a.example/2</link><description>x</description></item>`,
      ),
      base,
    );
    expect(a).toMatchObject({ title: '1.10', url: 'https://a.example/1' });
    expect(b).toMatchObject({ title: '007', url: 'https://a.example/2' });
  });

  it('makes titles and summaries plain text: entities decoded, tags removed, no stray spaces', () => {
    const [e] = parseFeed(
      rss(
        `<item><title>&amp;#x0024;4300 3bd 1930ft&lt;sup&gt;2&lt;/sup&gt;</title><link>https://a.example/1</link>` +
          `<description>&lt;p&gt;One &amp;middot; &lt;b&gt;two&lt;/b&gt;.&lt;/p&gt;  &lt;p&gt;Three&lt;/p&gt;</description></item>`,
      ),
      base,
    );
    expect(e!.title).toBe('$4300 3bd 1930ft2');
    expect(e!.summary).toBe('One · two. Three');
  });

  it('uses media:description and itunes:summary when there is no description', () => {
    const [m, i] = parseFeed(
      rss(
        `<item><title>M</title><link>https://a.example/m</link><media:group><media:description>From media</media:description></media:group></item>` +
          `<item><title>I</title><link>https://a.example/i</link><itunes:summary>From iTunes</itunes:summary></item>`,
      ),
      base,
    );
    expect(m!.summary).toBe('From media');
    expect(i!.summary).toBe('From iTunes');
  });

  it('passes dc:identifier and prism:doi through as the DOI', () => {
    const [d, p] = parseFeed(
      rss(
        `<item><title>D</title><link>https://a.example/d</link><dc:identifier>doi:10.1000/abc.1</dc:identifier></item>` +
          `<item><title>P</title><link>https://a.example/p</link><prism:doi>10.1000/xyz.2</prism:doi></item>`,
      ),
      base,
    );
    expect(d!.doi).toBe('10.1000/abc.1');
    expect(p!.doi).toBe('10.1000/xyz.2');
  });

  it('reads Atom text, html and xhtml constructs', () => {
    const [e] = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><id>urn:x</id>` +
        `<title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">Hello <b>bold</b> world</div></title>` +
        `<link href="https://a.example/x"/><summary type="html">&lt;p&gt;S &amp;amp; T&lt;/p&gt;</summary>` +
        `<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Para <i>one</i></p></div></content></entry>` +
        `<entry><id>urn:y</id><title type="text">a &lt;b&gt; c</title><link href="https://a.example/y"/></entry></feed>`,
      base,
    );
    expect(e).toMatchObject({ title: 'Hello bold world', summary: 'S & T' });
    expect(e!.content).toContain('Para <i>one</i>');
    const [, text] = parseFeed(
      `<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>x</title><link href="https://a.example/x"/></entry><entry><title type="text">a &lt;b&gt; c</title><link href="https://a.example/y"/></entry></feed>`,
      base,
    );
    expect(text!.title).toBe('a <b> c');
  });

  it('reads Atom 0.3 issued and modified dates', () => {
    const feed = (dates: string) =>
      `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><title>t</title><entry><title>E</title>` +
      `<link rel="alternate" type="text/html" href="https://a.example/e"/>${dates}</entry></feed>`;
    expect(parseFeed(feed('<issued>2004-01-01T00:00:00Z</issued>'), base)[0]!.publishedAt).toEqual(
      new Date('2004-01-01T00:00:00Z'),
    );
    expect(parseFeed(feed('<modified>2004-01-02T00:00:00Z</modified>'), base)[0]!.publishedAt).toEqual(
      new Date('2004-01-02T00:00:00Z'),
    );
  });

  it('reads RSS 0.91 and RDF', () => {
    const [a] = parseFeed(
      `<rss version="0.91"><channel><title>c</title><item><title>Old</title><link>https://a.example/o</link></item></channel></rss>`,
      base,
    );
    expect(a!.title).toBe('Old');
    const [r] = parseFeed(
      `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel rdf:about="https://a.example/"><title>c</title></channel>` +
        `<item rdf:about="https://a.example/r"><title>R</title><link>https://a.example/r</link><dc:date>2020-02-03T04:05:06Z</dc:date></item></rdf:RDF>`,
      base,
    );
    expect(r).toMatchObject({
      title: 'R',
      url: 'https://a.example/r',
      publishedAt: new Date('2020-02-03T04:05:06Z'),
    });
  });

  it('cleans U+0000 and other controls out of every field, and never expands DOCTYPE entities', () => {
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1',
      items: [
        {
          id: '1',
          url: 'https://a.example/\u0000n',
          title: 'Nul\u0000 and\u0007 bell',
          summary: 'Tab\tand\nnewline\r\nkept\u001b',
          content_html: '<p>x\u0000y\uD800</p>',
          authors: [{ name: 'A\u0000B' }],
          tags: ['t\u0000'],
        },
      ],
    });
    const [e] = parseFeed(json, base);
    expect(e).toMatchObject({
      title: 'Nul and bell',
      author: 'AB',
      categories: ['t'],
      content: '<p>xy\uFFFD</p>',
    });
    expect(JSON.stringify(e)).not.toMatch(/\\u000[0-8]|\\u001b|\\u0007/);
    expect(cleanText('a\tb\nc\r\nd\u0000')).toBe('a\tb\nc\nd');
    const lol = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><rss version="2.0"><channel><title>x</title><item><title>&c;</title><link>https://a.example/l</link></item></channel></rss>`;
    expect(parseFeed(lol, base)[0]!.title.length).toBeLessThan(100);
  });

  it('bounds one entry: a huge title is cut at a word, an entry with a huge URL is left out', () => {
    const words = 'word '.repeat(4000);
    const entries = parseFeed(
      rss(
        `<item><title>${words}</title><link>https://a.example/long-title</link></item>` +
          `<item><title>Long URL</title><link>https://a.example/${'p'.repeat(5000)}</link></item>` +
          `<item><title>Fine</title><link>https://a.example/fine</link></item>`,
      ),
      base,
    );
    expect(entries.map((e) => e.url)).toEqual(['https://a.example/long-title', 'https://a.example/fine']);
    expect(entries[0]!.title.length).toBeLessThanOrEqual(500);
    expect(entries[0]!.title).toMatch(/^word word .*word…$/);
  });

  it('refuses truncated, malformed and foreign documents with a clear error', () => {
    const good = rss('<item><title>A</title><link>https://a.example/1</link></item>');
    expect(() => parseFeed(good.slice(0, -20), base)).toThrow(/malformed XML/);
    expect(() => parseFeed(rss('<item><title>A</item>'), base)).toThrow(FeedFormatError);
    expect(() => parseFeed('<html><body>hi</body></html>', base)).toThrow(/not an RSS/);
    expect(() => parseFeed('{"items": 1}', base)).toThrow(/items/);
  });
});

describe('charset of a body', () => {
  const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><r>Not\xedcias</r>', 'latin1');
  it('prefers the header, then a BOM, then the XML declaration, else UTF-8', () => {
    expect(headerCharset('text/xml; charset="windows-1251"')).toBe('windows-1251');
    expect(decodeBody(latin1, 'text/xml').text).toContain('Notícias');
    expect(decodeBody(Buffer.from('<r>Привет</r>', 'utf8'), 'text/xml; charset=utf-8').text).toBe(
      '<r>Привет</r>',
    );
    const cp1251 = Buffer.from([0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2]);
    expect(decodeBody(cp1251, 'text/plain; charset=windows-1251').text).toBe('Привет');
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<r>ü</r>', 'utf16le')]);
    expect(decodeBody(utf16, 'application/xml').text).toBe('<r>ü</r>');
    expect(decodeBody(Buffer.from('<r>ü</r>'), null)).toEqual({ text: '<r>ü</r>', charset: 'utf-8' });
  });

  it('reads UTF-8 as iconv-lite does: the BOM dropped, each bad sequence one U+FFFD', () => {
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x3c, 0x72, 0x3e, 0xff, 0xed, 0xa0, 0x80, 0xe2, 0x82]);
    const want = '<r>\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD';
    expect(iconv.decode(bytes, 'utf-8')).toBe(want);
    for (const type of ['text/xml; charset=UTF-8', 'application/rss+xml; charset="utf8"', null])
      expect(decodeBody(bytes, type).text).toBe(want);
  });
});

describe('HTML to text', () => {
  it('drops scripts, styles, comments and chrome, and decodes entities', () => {
    expect(htmlToText('<nav>Menu</nav><p>One &amp; two</p><script>x()</script><!-- c --><p>Three!</p>')).toBe(
      'One & two. Three!',
    );
    expect(inlineHtmlToText('A <i>b</i>, c &hellip;')).toBe('A b, c …');
  });

  it('reads a page title and its article', async () => {
    const page = await extractPage(
      '<html><head><title>T &amp; U</title></head><body><header>Site</header><article><h1>H</h1><p>Body.</p></article><footer>f</footer></body></html>',
    );
    expect(page).toEqual({ title: 'T & U', text: 'H. Body.' });
  });

  /** CPU milliseconds of this process: unlike wall time, not inflated when other processes share the cores */
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };

  it.each([
    ['an unclosed <script', '<p>Before</p><script>' + 'x'.repeat(5_000_000)],
    ['an unclosed comment', '<p>Before</p><!--' + 'y'.repeat(5_000_000)],
    ['an unclosed attribute', '<p>Before</p><a href="' + 'z'.repeat(5_000_000)],
    ['a million nested elements', '<p>Before</p>' + '<div>'.repeat(1_000_000)],
    ['a million unclosed tags', '<p>Before</p>' + '<b'.repeat(2_500_000)],
  ])('turns 5 MB with %s into text in well under a second', async (_name, body) => {
    let t = cpuMs();
    expect(htmlToText(body)).toMatch(/^Before/);
    expect(cpuMs() - t).toBeLessThan(800);
    t = cpuMs();
    expect((await extractPage(body)).text).toMatch(/^Before/);
    expect(cpuMs() - t).toBeLessThan(800);
  });

  it('never holds the event loop for long while reading a big page', async () => {
    const body = '<p>Before</p><script>' + '<p>x</p>'.repeat(600_000);
    // the CPU spent between two turns of a 1 ms timer is the longest the loop was held
    let worst = 0;
    let last = cpuMs();
    const timer = setInterval(() => {
      const now = cpuMs();
      worst = Math.max(worst, now - last);
      last = now;
    }, 1);
    await extractPage(body);
    clearInterval(timer);
    expect(worst).toBeLessThan(50);
  });
});
