/**
 * HTML to plain text with a streaming HTML parser (htmlparser2's tokenizer: one pass, linear in the
 * input, no regular expressions over markup), so an unclosed `<script` or `<!--` costs what any
 * other byte costs. Entities are decoded by the parser; controls are removed by `cleanText`.
 */
import { Tokenizer } from 'htmlparser2';
import { cleanText, oneLine } from '../../../domain/text.js';

/** subtrees whose text is never content */
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object']);
/** page chrome, left out of a page's or an article's readable text */
const CHROME = new Set(['nav', 'header', 'footer', 'aside', 'form', 'button', 'select']);
const BLOCKS = new Set([
  ...['p', 'div', 'section', 'article', 'main', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'tr', 'td', 'th'],
  ...['table', 'blockquote', 'pre', 'figure', 'figcaption', 'br', 'hr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
]);
const ENDS_SENTENCE = /[.!?:;…。！？]$/;

/**
 * Collects the text of a document as blocks, the title and the `<article>`/`<main>` part apart. It
 * sits on the tokenizer, not on htmlparser2's Parser: the Parser keeps open elements with
 * `Array.unshift`, quadratic in nesting depth (a million unclosed `<div>` take minutes). Here every
 * element is a counter, so the cost is one pass whatever the nesting.
 */
class TextCollector {
  private html = '';
  private skipDepth = 0;
  private mainDepth = 0;
  private inTitle = false;
  private tag = '';
  private title = '';
  private readonly blocks: string[] = [];
  private readonly mainBlocks: string[] = [];
  private current = '';
  private currentMain = '';
  private readonly tokenizer: Tokenizer;

  constructor(private readonly dropChrome: boolean) {
    const noop = () => undefined;
    this.tokenizer = new Tokenizer(
      { decodeEntities: true },
      {
        onattribdata: noop,
        onattribentity: noop,
        onattribend: noop,
        onattribname: noop,
        oncdata: noop,
        oncomment: noop,
        ondeclaration: noop,
        onend: noop,
        onopentagend: noop,
        onprocessinginstruction: noop,
        onopentagname: (start, end) => this.open(this.html.slice(start, end).toLowerCase()),
        onselfclosingtag: () => this.close(this.tag),
        onclosetag: (start, end) => this.close(this.html.slice(start, end).toLowerCase()),
        ontext: (start, end) => this.text(this.html.slice(start, end)),
        ontextentity: (codepoint) => this.text(String.fromCodePoint(codepoint)),
      },
    );
  }

  /** `whole` is the document so far (the tokenizer reports offsets into it), `chunk` its new end */
  write(whole: string, chunk: string) {
    this.html = whole;
    this.tokenizer.write(chunk);
  }

  end(whole: string) {
    this.html = whole;
    this.tokenizer.end();
  }

  private skips(name: string) {
    return SKIPPED.has(name) || (this.dropChrome && CHROME.has(name));
  }

  private open(name: string) {
    this.tag = name;
    if (name === 'title' && this.skipDepth === 0) this.inTitle = true;
    if (this.skips(name)) this.skipDepth++;
    if (BLOCKS.has(name)) this.flush();
    if (name === 'article' || name === 'main') this.mainDepth++;
  }

  private close(name: string) {
    if (name === 'title') this.inTitle = false;
    if (this.skips(name)) this.skipDepth = Math.max(0, this.skipDepth - 1);
    if (BLOCKS.has(name)) this.flush();
    if ((name === 'article' || name === 'main') && this.mainDepth > 0) this.mainDepth--;
  }

  private text(text: string) {
    if (this.inTitle) this.title += text;
    if (this.skipDepth > 0 || this.inTitle) return;
    this.current += text;
    if (this.mainDepth > 0) this.currentMain += text;
  }

  private flush() {
    if (this.current) {
      const block = oneLine(this.current);
      if (block) this.blocks.push(block);
    }
    if (this.currentMain) {
      const main = oneLine(this.currentMain);
      if (main) this.mainBlocks.push(main);
    }
    this.current = this.currentMain = '';
  }

  /** `sentences`: blocks that do not end a sentence get a period (text for analysis) */
  result(sentences = true): { title: string | null; text: string; main: string } {
    this.flush();
    const join = sentences ? joinSentences : (blocks: string[]) => cleanText(blocks.join(' '));
    return {
      title: cleanText(oneLine(this.title)) || null,
      text: join(this.blocks),
      main: join(this.mainBlocks),
    };
  }
}

/** Blocks joined into one line; a block that does not end a sentence gets a period. */
function joinSentences(blocks: string[]): string {
  return cleanText(
    blocks.map((b, i) => (i < blocks.length - 1 && !ENDS_SENTENCE.test(b) ? `${b}.` : b)).join(' '),
  );
}

/** The readable text of an HTML fragment or page: no scripts, styles, navigation or tags. */
export function htmlToText(html: string): string {
  const c = new TextCollector(true);
  c.write(html, html);
  c.end(html);
  return c.result().text;
}

/**
 * Inline HTML (a feed title or summary) as one line of plain text: tags removed, entities decoded,
 * no space left before punctuation. Block boundaries become spaces, not periods.
 */
export function inlineHtmlToText(html: string): string {
  const c = new TextCollector(false);
  c.write(html, html);
  c.end(html);
  return c.result(false).text;
}

const CHUNK = 32 * 1024;

/**
 * The title and readable text of a page (its `<article>` or `<main>` when it has one) in one go:
 * for a worker thread, where holding the thread holds nobody else.
 */
export function pageText(html: string): { title: string | null; text: string } {
  const c = new TextCollector(true);
  for (let i = 0; i < html.length; i += CHUNK) c.write(html, html.slice(i, i + CHUNK));
  c.end(html);
  const r = c.result();
  return { title: r.title, text: r.main || r.text };
}

/**
 * The title and readable text of a page (its `<article>` or `<main>` when it has one). The parser is
 * fed in chunks with a turn of the event loop between them, so a body of megabytes never holds the
 * process for more than one chunk's work.
 */
export async function extractPage(html: string): Promise<{ title: string | null; text: string }> {
  const c = new TextCollector(true);
  for (let i = 0; i < html.length; i += CHUNK) {
    c.write(html, html.slice(i, i + CHUNK));
    if (i + CHUNK < html.length) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  c.end(html);
  const r = c.result();
  return { title: r.title, text: r.main || r.text };
}
