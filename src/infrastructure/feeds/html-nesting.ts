import { createRequire } from 'node:module';

/**
 * Elements nested deeper than this lose their tags (their text stays). Reading markup rarely goes
 * past 20 levels; 64 leaves room for lists in tables in quotes.
 */
export const MAX_NESTING = 64;

/**
 * What this pass uses of htmlparser2's Parser: its stack (private in its types: a version that
 * renames it fails every sanitising and the tests at once) and the tokenizer events that change it.
 */
interface StackParser {
  readonly stack: readonly string[];
  onopentagname(start: number, end: number): void;
  onopentagend(end: number): void;
  onselfclosingtag(end: number): void;
  onclosetag(start: number, end: number): void;
  isInForeignContext(): boolean;
  write(html: string): void;
  end(): void;
}
interface Htmlparser2 {
  Parser: new (cbs: object, options: object) => StackParser;
  Tokenizer: new (options: object, cbs: object) => { readonly isSpecial: boolean };
}

const noop = () => {};

/**
 * The tokenizer events of one pass: tag events reach the parser only while its stack is short
 * enough, and the tags withheld from it are cut out of the HTML.
 */
class Bound {
  parser!: StackParser;
  tokenizer!: { readonly isSpecial: boolean };
  /** the names (lower case) of the open tags the parser was given: no other closing tag can match */
  private readonly opened = new Set<string>();
  /** the open tag being read: whether it is withheld from the parser, and where its `<` is */
  private dropping = false;
  private openFrom = 0;
  /** the text kept so far, up to `keptTo`; then the pending cut [cutFrom, cutTo) */
  private readonly parts: string[] = [];
  private keptTo = 0;
  private cutFrom = 0;
  private cutTo = 0;

  constructor(
    private readonly html: string,
    private readonly maxDepth: number,
  ) {}

  onopentagname(start: number, end: number) {
    this.openFrom = start - 1;
    // a raw-text element (script, style, textarea, iframe, ...) holds no tags and always opens:
    // the tokenizer reads its content as text whatever the parser does, and its end tag closes it
    this.dropping = this.parser.stack.length >= this.maxDepth && !this.tokenizer.isSpecial;
    if (this.dropping) return;
    this.opened.add(this.html.slice(start, end).toLowerCase());
    this.parser.onopentagname(start, end);
  }
  onopentagend(end: number) {
    if (this.dropping) this.cut(this.openFrom, end + 1);
    else this.parser.onopentagend(end);
    this.dropping = false;
  }
  onselfclosingtag(end: number) {
    if (this.dropping) this.cut(this.openFrom, end + 1);
    else this.parser.onselfclosingtag(end);
    this.dropping = false;
  }
  onclosetag(start: number, end: number) {
    const name = this.html.slice(start, end).toLowerCase();
    // the parser reads `</br>` as a line break, which opens nothing
    if (name === 'br') return;
    if (this.opened.has(name)) {
      const depth = this.parser.stack.length;
      this.parser.onclosetag(start, end);
      if (this.parser.stack.length < depth) return;
    }
    const gt = this.html.indexOf('>', end);
    this.cut(this.html.lastIndexOf('<', start), gt === -1 ? this.html.length : gt + 1);
  }
  isInForeignContext() {
    return this.parser.isInForeignContext();
  }
  // text, comments and attributes change no stack
  onattribdata = noop;
  onattribentity = noop;
  onattribend = noop;
  onattribname = noop;
  oncdata = noop;
  oncomment = noop;
  ondeclaration = noop;
  onend = noop;
  onprocessinginstruction = noop;
  ontext = noop;
  ontextentity = noop;

  /** the HTML without the cut tags */
  result(): string {
    if (this.cutTo === 0) return this.html;
    return [...this.parts, this.html.slice(this.keptTo, this.cutFrom), this.html.slice(this.cutTo)].join('');
  }

  private cut(from: number, to: number) {
    // a `<` just before a cut tag is text (a tag cannot end in one): it goes too, else it would
    // open a tag with the text after the cut (`<<div>div>` would become `<div>`)
    while (from > this.cutTo && this.html.charCodeAt(from - 1) === 0x3c) from--;
    if (from > this.cutTo) {
      this.parts.push(this.html.slice(this.keptTo, this.cutFrom));
      this.keptTo = this.cutTo;
      this.cutFrom = from;
    }
    this.cutTo = Math.max(this.cutTo, to);
  }
}

/**
 * sanitize-html's own htmlparser2 (it depends on another major version than this project), loaded
 * on the first reader view with sanitize-html, and a tokenizer that hands its events to a `Bound`
 */
let loaded: { Parser: Htmlparser2['Parser']; Tokenizer: unknown } | null = null;
function htmlparser2(): { Parser: Htmlparser2['Parser']; Tokenizer: unknown } {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const h = createRequire(require.resolve('sanitize-html'))('htmlparser2') as Htmlparser2;
  class BoundTokenizer extends h.Tokenizer {
    constructor(options: { bound: Bound }, parser: StackParser) {
      super(options, options.bound);
      options.bound.parser = parser;
      options.bound.tokenizer = this;
    }
  }
  loaded = { Parser: h.Parser, Tokenizer: BoundTokenizer };
  return loaded;
}

/**
 * HTML with at most `maxDepth` open elements at any point, in time linear in its length.
 *
 * An HTML parser keeps a stack of open elements and looks a closing tag up in it: markup such as
 * `<div>`×20000 followed by `</b>`×24000 makes every close a scan of 20,000 entries (0.5 s for
 * 196 KB in sanitize-html). This pass runs the parser sanitize-html runs (its htmlparser2, with
 * its options), but an open tag reaches that parser only while its stack is below `maxDepth`, and
 * a closing tag only when it can match an open element; the tags withheld from it, and the closing
 * tags that closed nothing, are cut out of the HTML. sanitize-html then parses the same tokens
 * less the cut ones, so its stack is the one this pass saw: never deeper than `maxDepth` (one more
 * for a raw-text element, which holds no tags). The decisions are the parser's own (its implied
 * closes, foreign content, void elements, names), not a copy of its rules that could drift from
 * it. It only removes tags, never adds any: whatever it lets through still goes through the
 * sanitizer.
 *
 * Such markup is mostly tags to cut, so the work per tag is what this pass costs: a closing tag
 * whose name never opened is cut without asking the parser (whose lookup scans its stack), and a
 * run of adjacent cuts is one cut.
 */
export function boundNesting(html: string, maxDepth = MAX_NESTING): string {
  const { Parser, Tokenizer } = htmlparser2();
  const bound = new Bound(html, maxDepth);
  // sanitize-html's parser options: it decodes entities (htmlParserDefaults), in HTML mode
  const parser = new Parser({}, { decodeEntities: true, Tokenizer, bound });
  parser.write(html);
  parser.end();
  return bound.result();
}
