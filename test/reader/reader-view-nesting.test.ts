import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { makeArticle } from '../helpers/article-factories.js';
import { boundNesting, MAX_NESTING } from '../../src/infrastructure/feeds/html-nesting.js';
import { SanitizeHtmlSanitizer } from '../../src/infrastructure/feeds/html-sanitizer.js';
import { CachedHtmlSanitizer } from '../../src/infrastructure/feeds/cached-html-sanitizer.js';
import type { HtmlSanitizer } from '../../src/application/articles/articles.ports.js';

/** The reported item: 196 KB of `<div>`×20000 and `</b>`×24000. */
const NESTED = `${'<div>'.repeat(20_000)}deep text${'</b>'.repeat(24_000)}`;

/** the deepest element nesting of (well-formed, sanitised) HTML */
function depthOf(html: string): number {
  let depth = 0;
  let max = 0;
  for (const m of html.matchAll(/<(\/?)([a-z][a-z0-9]*)[^>]*?(\/?)>/g)) {
    if (['br', 'img', 'hr'].includes(m[2]!)) continue;
    depth += m[1] ? -1 : 1;
    max = Math.max(max, depth);
  }
  return max;
}

/** sanitize-html's own htmlparser2 (another major version than the project's) */
const { Parser } = createRequire(createRequire(import.meta.url).resolve('sanitize-html'))('htmlparser2') as {
  Parser: new (
    cbs: { onopentagname(): void },
    options: object,
  ) => { readonly stack: string[]; end(html: string): void };
};

/** the deepest stack of open elements sanitize-html's parser holds while reading `html` */
function parsedDepth(html: string): number {
  let max = 0;
  const parser = new Parser(
    {
      onopentagname: () => {
        max = Math.max(max, parser.stack.length);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  return max;
}

describe('nesting bound before sanitising (issue 24)', () => {
  it('keeps reading markup as it is', () => {
    const html =
      '<p>One <b>bold</b> <a href="/x?a=1&b=2" title="a > b">link</a><br>two<p>three</p>' +
      '<ul><li>a<li>b<li>c</ul><table><tr><td>1<td>2<tr><td>3</table>' +
      '<script>if (a </b) x()</script><pre><code>&lt;div&gt;</code></pre><!-- </b> -->';
    expect(boundNesting(html)).toBe(html);
  });

  it('drops the tags past the depth and the closing tags that close nothing; the text stays', () => {
    expect(boundNesting('<div><section><p>deep</p></section></div>', 2)).toBe(
      '<div><section>deep</section></div>',
    );
    expect(boundNesting('<b>x</i></b></b>')).toBe('<b>x</b>');
    expect(boundNesting('<i>a</b  ></i>')).toBe('<i>a</i>');
    // a raw-text element always opens, so its own end tag still closes it
    expect(boundNesting('<div><div><script>x</script></div></div>y', 2)).toBe(
      '<div><div><script>x</script></div></div>y',
    );
    const bounded = boundNesting(NESTED);
    expect(bounded).toContain('deep text');
    expect(bounded.length).toBeLessThan(1_000);
  });

  it('cuts a run of closing tags that close nothing, however long, and keeps the text between cuts', () => {
    expect(boundNesting(`<b>x${'</i>'.repeat(1_000)}y</b>`)).toBe('<b>xy</b>');
    expect(boundNesting('<div>a'.repeat(5), 2)).toBe('<div>a<div>aaaa');
    expect(boundNesting(`<p>${'<i>a</u>'.repeat(4)}</p>`, 1)).toBe('<p>aaaa</p>');
    // a closing tag matching an element deeper down closes everything above it, so it counts
    expect(boundNesting('<i><b><u>x</i></b></u>')).toBe('<i><b><u>x</i>');
  });

  it('sees no tags where the tokenizer sees none: attribute values, comments, CDATA, raw text', () => {
    const html =
      '<a title="<div></b>" data-x=\'</i><p>\'>x</a><!-- <div></b> --><![CDATA[ <div></b> ]]>' +
      '<style>p</b>{}</style><script>"<div>"</b></script><textarea></b><div></textarea>';
    expect(boundNesting(html, 1)).toBe(html);
  });

  it('leaves an unterminated tag at the end as it is (the tokenizer reports no tag)', () => {
    expect(boundNesting('<div><div x="</b>', 1)).toBe('<div><div x="</b>');
    expect(boundNesting('<b>x</b', 1)).toBe('<b>x</b');
    // a closing tag without its `>` is cut to the end
    expect(boundNesting('<b>x</i ', 1)).toBe('<b>x');
  });

  it("leaves sanitize-html's parser no deeper than the bound, whatever the markup", () => {
    // what the parser reads differently from a plain tokenizer: implied closes, foreign content
    // (svg, math) and its integration points, name adjustments, raw-text and bogus-comment forms
    const pieces = (
      '<div>|</div>|<b>|</b>|<B >|<p>|</p>|<li>|<ul>|<td>|<tr>|<table>|x|<|<<|</|>|</ b>|' +
      '<br>|</br>|<img>|<image>|</image>|<svg>|</svg>|<math>|</math>|<foreignObject>|' +
      '</foreignObject>|<foreignobject>|<mi>|</mi>|<desc>|<title>|</title>|<style>|' +
      '</style>|<script>|</script>|<script/>|<textarea>|</textarea>|<iframe>|</iframe>|' +
      '<noembed>|<xmp>|<plaintext>|<!-- a --!>|<!--|-->|<!-->|<![CDATA[|]]>|<?x>|<!x>|' +
      '<form>|</form>|<h1>|<h2>|<a>|</a>|<div/>|<a title="<b>">|<a t=\'</b>\'>|&lt;|<dd>|' +
      '<option>|<select>|<tbody>|<annotation-xml>|<altglyph>|</altGlyph>'
    ).split('|');
    let seed = 24;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return (seed >>> 8) % n;
    };
    const deeper: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      let html = '';
      for (let j = 1 + next(100); j > 0; j--) html += pieces[next(pieces.length)];
      const depth = 1 + next(5);
      // one more for a raw-text element, which always opens and holds no tags
      if (parsedDepth(boundNesting(html, depth)) > depth + 1) deeper.push(`${depth}: ${html}`);
    }
    expect(deeper.slice(0, 3)).toEqual([]);
  });

  it("bounds markup that a tokenizer other than the parser's, or a cut, would let through", async () => {
    const deep = `${'<div>'.repeat(20_000)}deep text${'</b>'.repeat(24_000)}`;
    for (const html of [
      // htmlparser2 12 ends a comment at `--!>` (10 did not)
      `<!-- a --!>${deep} -->`,
      // a cut `<div>` would leave `<` then `div>`: a new tag
      `${'<div>'.repeat(64)}${'<<div>div>'.repeat(20_000)}`,
      // in foreign content <style> is no raw text: its tags open
      `<svg><style>${deep}</style></svg>`,
    ]) {
      expect(parsedDepth(boundNesting(html))).toBeLessThanOrEqual(MAX_NESTING + 1);
      const out = await new SanitizeHtmlSanitizer().sanitize(html, 'https://example.test/a');
      expect(depthOf(out)).toBeLessThanOrEqual(MAX_NESTING);
    }
  });

  it('sanitises the reported item to at most the bounded depth, with its text', async () => {
    const out = await new SanitizeHtmlSanitizer().sanitize(NESTED, 'https://example.test/a');
    expect(out).toContain('deep text');
    expect(depthOf(out)).toBeLessThanOrEqual(MAX_NESTING);
  });
});

describe('sanitised HTML computed once per content', () => {
  /** the real sanitizer, counting its calls */
  const counting = () => {
    const real = new SanitizeHtmlSanitizer();
    const counter: HtmlSanitizer & { calls: number } = {
      calls: 0,
      sanitize(html, base) {
        counter.calls++;
        return real.sanitize(html, base);
      },
    };
    return counter;
  };

  it('answers a second view from memory, and sanitises changed content or another base anew', async () => {
    const inner = counting();
    const cached = new CachedHtmlSanitizer(inner);
    const html = '<p>Hello <a href="/b">there</a></p>';
    const [first, same] = await Promise.all([
      cached.sanitize(html, 'https://a.test/x'),
      cached.sanitize(html, 'https://a.test/x'),
    ]);
    expect(same).toBe(first);
    expect(await cached.sanitize(html, 'https://a.test/x')).toBe(first);
    expect(inner.calls).toBe(1);
    expect(await cached.sanitize(html, 'https://b.test/x')).toContain('https://b.test/b');
    await cached.sanitize(`${html}<p>more</p>`, 'https://a.test/x');
    expect(inner.calls).toBe(3);
  });

  it('keeps within its memory, the least recently used dropped first', async () => {
    const inner = counting();
    // room for about two of these outputs
    const cached = new CachedHtmlSanitizer(inner, 2 * 2 * 1_100);
    const page = (n: number) => `<p>${String(n).repeat(1_000)}</p>`;
    await cached.sanitize(page(1), 'https://a.test/');
    await cached.sanitize(page(2), 'https://a.test/');
    await cached.sanitize(page(1), 'https://a.test/');
    await cached.sanitize(page(3), 'https://a.test/');
    expect(inner.calls).toBe(3);
    await cached.sanitize(page(1), 'https://a.test/');
    expect(inner.calls).toBe(3);
    await cached.sanitize(page(2), 'https://a.test/');
    expect(inner.calls).toBe(4);
  });

  it("by a caller's key reads its input once; a new key (the row written again) reads and sanitises anew", async () => {
    const inner = counting();
    const cached = new CachedHtmlSanitizer(inner);
    let reads = 0;
    const read = (html: string | null) => () => {
      reads++;
      return Promise.resolve(html);
    };
    const html = '<p>Hello <a href="/b">there</a></p>';
    const first = await cached.sanitizeKeyed('a1@100', 'https://a.test/x', read(html));
    expect(first).toContain('https://a.test/b');
    for (let i = 0; i < 5; i++)
      expect(await cached.sanitizeKeyed('a1@100', 'https://a.test/x', read(html))).toBe(first);
    expect([reads, inner.calls]).toEqual([1, 1]);
    // an article without HTML is kept too: its views read nothing either
    expect(await cached.sanitizeKeyed('a2@7', 'https://a.test/y', read(null))).toBeNull();
    expect(await cached.sanitizeKeyed('a2@7', 'https://a.test/y', read(null))).toBeNull();
    expect(reads).toBe(2);
    const changed = await cached.sanitizeKeyed('a1@101', 'https://a.test/x', read(`${html}<p>more</p>`));
    expect(changed).toContain('more');
    expect([reads, inner.calls]).toEqual([3, 2]);
  });
});

describe('the reader view of the nested item', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t?.close());

  it('serves it bounded, with its text, the same on every view', async () => {
    const article = await makeArticle(t.container.database.db, {
      title: 'Nested markup',
      metadata: { content_html: NESTED },
    });
    const view = async () => {
      const res = await t.app.inject({ method: 'GET', url: `/articles/${article.id}` });
      expect(res.statusCode).toBe(200);
      return { html: res.json<{ content_html: string }>().content_html };
    };
    const first = await view();
    expect(first.html).toContain('deep text');
    expect(depthOf(first.html)).toBeLessThanOrEqual(MAX_NESTING);
    const again = await view();
    expect(again.html).toBe(first.html);
  });

  it('shows changed HTML at the next view: what is kept is keyed by the row version', async () => {
    const db = t.container.database.db;
    const article = await makeArticle(db, {
      title: 'Edited',
      metadata: { content_html: '<p>first words</p>' },
    });
    const view = async () =>
      (await t.app.inject({ method: 'GET', url: `/articles/${article.id}` })).json<{
        content_html: string | null;
      }>().content_html;
    expect(await view()).toContain('first words');
    expect(await view()).toContain('first words');
    await db.execute(
      sql`update articles set metadata = jsonb_build_object('content_html', '<p>second words</p>') where id = ${article.id}`,
    );
    expect(await view()).toContain('second words');
    await db.execute(sql`update articles set metadata = '{}'::jsonb where id = ${article.id}`);
    expect(await view()).toBeNull();
  });
});
