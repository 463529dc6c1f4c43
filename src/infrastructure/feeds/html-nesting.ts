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
 */
export function boundNesting(html: string, maxDepth = MAX_NESTING): string {
  const stack: string[] = [];
  /** [from, to) ranges of tags to cut, in order */
  const cuts: number[] = [];
  let opening: { name: string; from: number } | null = null;

  const open = (end: number) => {
    const tag = opening;
    opening = null;
    if (!tag || VOID.has(tag.name)) return;
    const closes = OPEN_CLOSES.get(tag.name);
    while (closes && stack.length && closes.has(stack[stack.length - 1]!)) stack.pop();
    // a raw-text element holds no tags: it always opens, so that its own end tag still closes it
    if (stack.length >= maxDepth && !RAW_TEXT.has(tag.name)) cuts.push(tag.from, end + 1);
    else stack.push(tag.name);
  };

  const callbacks: TokenizerCallbacks = {
    onopentagname(start, end) {
      opening = { name: html.slice(start, end).toLowerCase(), from: start - 1 };
    },
    onopentagend: open,
    onselfclosingtag: open,
    onclosetag(start, end) {
      const name = html.slice(start, end).toLowerCase();
      if (VOID.has(name)) return;
      const at = stack.lastIndexOf(name);
      if (at !== -1) {
        stack.length = at;
        return;
      }
      const gt = html.indexOf('>', end);
      cuts.push(start - 2, gt === -1 ? html.length : gt + 1);
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
  if (!cuts.length) return html;
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < cuts.length; i += 2) {
    parts.push(html.slice(at, cuts[i]));
    at = Math.max(at, cuts[i + 1]!);
  }
  parts.push(html.slice(at));
  return parts.join('');
}
