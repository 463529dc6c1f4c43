import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

/**
 * Elements nested deeper than this lose their tags (their text stays). Reading markup rarely goes
 * past 20 levels; 64 leaves room for lists in tables in quotes.
 */
export const MAX_NESTING = 64;

const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** the tokenizer reads these as raw text up to their own end tag: no tag can open inside them */
const RAW_TEXT = new Set(['script', 'style', 'title', 'textarea', 'xmp']);

const p = new Set(['p']);
const form = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const ddt = new Set(['dd', 'dt']);
const rtp = new Set(['rt', 'rp']);
const section = new Set(['thead', 'tbody']);
/** an open tag that ends the elements on top of the stack (htmlparser2's own rule, so both agree) */
const OPEN_CLOSES = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['li', new Set(['li'])],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddt],
  ['dt', ddt],
  ['rt', rtp],
  ['rp', rtp],
  ['tbody', section],
  ['tfoot', section],
  ...['select', 'input', 'output', 'button', 'datalist', 'textarea'].map((t): [string, Set<string>] => [
    t,
    form,
  ]),
  ...[
    'p',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'address',
    'article',
    'aside',
    'blockquote',
    'details',
    'div',
    'dl',
    'fieldset',
    'figcaption',
    'figure',
    'footer',
    'form',
    'header',
    'hr',
    'main',
    'nav',
    'ol',
    'pre',
    'section',
    'table',
    'ul',
  ].map((t): [string, Set<string>] => [t, p]),
]);

const noop = () => {};

/**
 * HTML with at most `maxDepth` open elements at any point, in time linear in its length.
 *
 * An HTML parser keeps a stack of open elements and looks a closing tag up in it: markup such as
 * `<div>`×20000 followed by `</b>`×24000 makes every close a scan of 20,000 entries (0.5 s for
 * 196 KB in sanitize-html). This pass tokenizes once, keeps its own stack no deeper than
 * `maxDepth`, and cuts out the tags of elements past that depth and the closing tags that close
 * nothing, so the sanitizer after it never sees a deep stack. It only removes tags, never adds
 * any: whatever it lets through still goes through the sanitizer.
 *
 * Such markup is mostly tags to cut, so the work per tag is what this pass costs: a closing tag
 * that closes nothing is known from a count per name, without scanning the stack, and a run of
 * adjacent cuts is one cut. On the item above, scanning 64 names for each of the 24,000 `</b>` and
 * keeping each cut apart took 8 of the 11 ms this pass took (the tokenizer the other 3).
 */
export function boundNesting(html: string, maxDepth = MAX_NESTING): string {
  const stack: string[] = [];
  /** how many elements of each name the stack holds */
  const counts = new Map<string, number>();
  /** the text kept so far, up to `keptTo`; then the pending cut [cutFrom, cutTo) */
  const parts: string[] = [];
  let keptTo = 0;
  let cutFrom = 0;
  let cutTo = 0;
  /** the open tag being read: its name and where its `<` is */
  let openName: string | null = null;
  let openFrom = 0;

  const cut = (from: number, to: number) => {
    if (from > cutTo) {
      parts.push(html.slice(keptTo, cutFrom));
      keptTo = cutTo;
      cutFrom = from;
    }
    cutTo = Math.max(cutTo, to);
  };
  const push = (name: string) => {
    stack.push(name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  const pop = () => {
    const name = stack.pop()!;
    counts.set(name, counts.get(name)! - 1);
  };

  const open = (end: number) => {
    const name = openName;
    openName = null;
    if (name === null || VOID.has(name)) return;
    const closes = OPEN_CLOSES.get(name);
    while (closes && stack.length && closes.has(stack[stack.length - 1]!)) pop();
    // a raw-text element holds no tags: it always opens, so that its own end tag still closes it
    if (stack.length >= maxDepth && !RAW_TEXT.has(name)) cut(openFrom, end + 1);
    else push(name);
  };

  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      openName = html.slice(start, end).toLowerCase();
      openFrom = start - 1;
    },
    onopentagend: open,
    onselfclosingtag: open,
    onclosetag(start, end) {
      const name = html.slice(start, end).toLowerCase();
      if (VOID.has(name)) return;
      if (counts.get(name)) {
        const at = stack.lastIndexOf(name);
        while (stack.length > at) pop();
        return;
      }
      const gt = html.indexOf('>', end);
      cut(start - 2, gt === -1 ? html.length : gt + 1);
    },
    onattribdata: noop,
    onattribentity: noop,
    onattribend: noop,
    onattribname: noop,
    oncdata: noop,
    oncomment: noop,
    ondeclaration: noop,
    onend: noop,
    onprocessinginstruction: noop,
    ontext: noop,
    ontextentity: noop,
  };
  const tokenizer = new Tokenizer({ decodeEntities: false }, callbacks);
  tokenizer.write(html);
  tokenizer.end();
  if (cutTo === 0) return html;
  parts.push(html.slice(keptTo, cutFrom), html.slice(cutTo));
  return parts.join('');
}
