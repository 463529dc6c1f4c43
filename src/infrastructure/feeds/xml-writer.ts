/**
 * A small XML 1.0 writer for documents we send out (Atom). Every string goes through one of two
 * escapes, so no value of ours or of a feed's can end an element, an attribute or a CDATA section
 * early, and every character it writes is one XML 1.0 allows:
 * - characters outside XML 1.0's `Char` production (C0 controls but tab and line breaks, U+FFFE,
 *   U+FFFF) are dropped; a lone surrogate becomes U+FFFD, as a UTF-8 encoder would write it;
 * - text escapes `&`, `<`, `>` (so `]]>` cannot appear) and `\r` (a parser would fold it into `\n`);
 * - attributes also escape both quotes, tab and line breaks (attribute-value normalisation would
 *   turn them into spaces).
 */

// a lone surrogate: with the `u` flag a well-formed pair is one code point and never matches
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu;
// eslint-disable-next-line no-control-regex
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const TEXT_SPECIAL = /[&<>\r]/g;
const ATTR_SPECIAL = /[&<>"'\t\n\r]/g;
const ENTITY: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** the string with only characters XML 1.0 allows */
export function xmlChars(s: string): string {
  return s.replace(LONE_SURROGATE, '\uFFFD').replace(NOT_XML_CHAR, '');
}

export function escapeText(s: string): string {
  return xmlChars(s).replace(TEXT_SPECIAL, (c) => ENTITY[c]!);
}

export function escapeAttr(s: string): string {
  return xmlChars(s).replace(ATTR_SPECIAL, (c) => ENTITY[c]!);
}

const NAME = /^[A-Za-z_][A-Za-z0-9._:-]*$/;

/** Element and attribute names are ours, never data: a wrong one is a programming error. */
function checkName(name: string): string {
  if (!NAME.test(name)) throw new Error(`not an XML name: ${name}`);
  return name;
}

export type Attrs = Record<string, string | undefined>;

/** Builds a document element by element; `toString()` gives the serialised document. */
export class XmlWriter {
  private readonly out: string[] = ['<?xml version="1.0" encoding="utf-8"?>\n'];
  private readonly open: string[] = [];

  /** opens an element; close it with `end()` */
  start(name: string, attrs: Attrs = {}): this {
    this.out.push(this.indent(), `<${checkName(name)}${this.attrs(attrs)}>\n`);
    this.open.push(name);
    return this;
  }

  end(): this {
    const name = this.open.pop();
    if (name === undefined) throw new Error('no element to close');
    this.out.push(this.indent(), `</${name}>\n`);
    return this;
  }

  /** an element holding only text (escaped), or empty when text is undefined */
  element(name: string, attrs: Attrs, text?: string): this {
    const tag = checkName(name);
    this.out.push(
      this.indent(),
      text === undefined
        ? `<${tag}${this.attrs(attrs)}/>\n`
        : `<${tag}${this.attrs(attrs)}>${escapeText(text)}</${tag}>\n`,
    );
    return this;
  }

  toString(): string {
    if (this.open.length) throw new Error(`unclosed elements: ${this.open.join(', ')}`);
    return this.out.join('');
  }

  private indent(): string {
    return '  '.repeat(this.open.length);
  }

  private attrs(attrs: Attrs): string {
    let s = '';
    for (const [k, v] of Object.entries(attrs))
      if (v !== undefined) s += ` ${checkName(k)}="${escapeAttr(v)}"`;
    return s;
  }
}
