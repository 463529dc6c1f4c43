/**
 * XML 1.0 well-formedness for documents without a DTD, judged as strictly as a conforming parser
 * (expat, libxml2) judges it. The lenient parsers of the feed libraries accept `<` in attribute
 * values, stray `&`, control characters and `]]>` in text; this check does not. Returns the first
 * problem with its offset, or null for a well-formed document. Names are checked in their ASCII
 * form (the documents we write use only ASCII names).
 */
// eslint-disable-next-line no-control-regex
const NOT_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/u;
const NAME = '[A-Za-z_:][-A-Za-z0-9._:]*';
const PREDEFINED = new Set(['amp', 'lt', 'gt', 'quot', 'apos']);

export function xmlProblem(xml: string): string | null {
  const bad = NOT_CHAR.exec(xml);
  if (bad) return `character U+${bad[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${bad.index}`;
  let i = 0;
  const decl = /^<\?xml\s+version\s*=\s*(["'])1\.[0-9]+\1[^?]*\?>/.exec(xml);
  if (decl) i = decl[0].length;
  else if (xml.startsWith('<?xml')) return 'malformed XML declaration';
  const stack: string[] = [];
  let roots = 0;
  const at = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(xml);
    if (m) i = re.lastIndex;
    return m;
  };
  while (i < xml.length) {
    if (xml.startsWith('<!--', i)) {
      const end = xml.indexOf('-->', i + 4);
      if (end < 0 || xml.slice(i + 4, end).includes('--')) return `bad comment at ${i}`;
      i = end + 3;
    } else if (xml.startsWith('<![CDATA[', i)) {
      const end = xml.indexOf(']]>', i);
      if (end < 0 || !stack.length) return `bad CDATA section at ${i}`;
      i = end + 3;
    } else if (xml.startsWith('<?', i)) {
      const end = xml.indexOf('?>', i);
      if (end < 0 || /^<\?xml[\s?]/i.test(xml.slice(i, i + 6))) return `bad processing instruction at ${i}`;
      i = end + 2;
    } else if (xml.startsWith('</', i)) {
      const start = i;
      const m = at(new RegExp(`</(${NAME})\\s*>`, 'y'));
      if (!m || stack.pop() !== m[1]) return `unexpected end tag at ${start}`;
    } else if (xml[i] === '<') {
      const start = i;
      const open = at(new RegExp(`<(${NAME})`, 'y'));
      if (!open) return `bad start tag at ${start}`;
      if (!stack.length && roots++ > 0) return `second root element at ${start}`;
      const seen = new Set<string>();
      for (let attr; (attr = at(new RegExp(`\\s+(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'y')));) {
        const value = attr[2] ?? attr[3] ?? '';
        if (seen.has(attr[1]!)) return `repeated attribute ${attr[1]} at ${start}`;
        seen.add(attr[1]!);
        if (value.includes('<')) return `"<" in an attribute value at ${start}`;
        const ref = referenceProblem(value);
        if (ref) return `${ref} in an attribute at ${start}`;
      }
      const close = at(/\s*(\/?)>/y);
      if (!close) return `bad start tag at ${start}`;
      if (!close[1]) stack.push(open[1]!);
    } else {
      const end = xml.indexOf('<', i);
      const text = xml.slice(i, end < 0 ? xml.length : end);
      if (!stack.length && text.trim()) return `text outside the root element at ${i}`;
      if (text.includes(']]>')) return `"]]>" in character data at ${i}`;
      const ref = referenceProblem(text);
      if (ref) return `${ref} at ${i}`;
      i += text.length;
    }
  }
  if (stack.length) return `unclosed element ${stack.at(-1)}`;
  return roots === 1 ? null : 'no root element';
}

/** `&` only as a predefined entity or a character reference to a legal character */
function referenceProblem(s: string): string | null {
  for (let amp = s.indexOf('&'); amp >= 0; amp = s.indexOf('&', amp + 1)) {
    const m = new RegExp(`^&(?:#([0-9]+)|#x([0-9a-fA-F]+)|(${NAME}));`).exec(s.slice(amp, amp + 40));
    if (!m) return 'a bare "&"';
    if (m[3] !== undefined && !PREDEFINED.has(m[3])) return `an undeclared entity &${m[3]};`;
    if (m[3] === undefined) {
      const code = m[1] !== undefined ? Number(m[1]) : parseInt(m[2]!, 16);
      if (code > 0x10ffff || NOT_CHAR.test(String.fromCodePoint(code)))
        return `a reference to an illegal character (${code})`;
    }
  }
  return null;
}
