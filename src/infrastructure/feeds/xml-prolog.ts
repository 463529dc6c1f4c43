/**
 * What the feed and OPML readers do to an XML document before its parser sees it: shared so that
 * both read the same real-world files the same way.
 */

/** `&` not starting an entity or character reference (old exporters and feeds write raw query strings) */
const BARE_AMPERSAND = /&(?!(?:[A-Za-z][\w.-]{0,31}|#\d{1,7}|#x[\dA-Fa-f]{1,6});)/g;

/** The text with every bare `&` escaped, so that one sloppy URL does not make the document malformed. */
export function escapeBareAmpersands(xml: string): string {
  return xml.replace(BARE_AMPERSAND, '&amp;');
}

/**
 * The root element's qualified name in lower case (`rdf:rdf`, `opml`), after the prolog
 * (declaration, comments, doctype, processing instructions); null when there is none.
 */
export function rootElementName(xml: string): string | null {
  let i = 0;
  for (;;) {
    i = xml.indexOf('<', i);
    if (i < 0) return null;
    const next = xml[i + 1];
    if (next !== '?' && next !== '!') break;
    const end = xml.startsWith('<!--', i) ? xml.indexOf('-->', i) : xml.indexOf('>', i);
    if (end < 0) return null;
    i = end + 1;
  }
  return /^<([A-Za-z_][\w.:-]*)/.exec(xml.slice(i, i + 200))?.[1]?.toLowerCase() ?? null;
}
