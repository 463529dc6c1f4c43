/**
 * OPML 2.0 through feedsmith (`parseOpml`, `generateOpml`), the library that already reads our
 * feeds (docs/decisions/0086-opml-import-export.md). Uploaded bytes pass here once: charset
 * decoded, control characters and entity declarations refused, well-formedness checked with
 * fast-xml-parser's validator (feedsmith reads a truncated document as whatever it got), the outline
 * count bounded, and every value handed on as plain trimmed text. Both libraries are loaded by the
 * first import or export, not at start (docs/decisions/0148-idle-memory-lazy-modules.md).
 */
import type { Opml } from 'feedsmith';
import { invalid } from '../../domain/errors.js';
import type {
  OpmlCodec,
  OpmlDocument,
  OpmlExport,
  OpmlOutline,
} from '../../application/catalog/opml.ports.js';
import { decodeBody } from './charset.js';
import { escapeBareAmpersands, rootElementName } from './xml-prolog.js';

/** outlines (folders and feeds) one file may hold */
export const MAX_OUTLINES = 5000;
/** our own attributes (kind, enabled) live in this namespace, declared on the outline that uses them */
export const AIS_NAMESPACE = 'urn:article-intel:opml';
const EXTRA = ['ais:kind', 'ais:enabled', 'miniflux:disabled'] as const;
const GENERATED = ['xmlns:ais', 'ais:kind', 'ais:enabled'] as const;

// eslint-disable-next-line no-control-regex -- XML 1.0 allows tab, LF and CR only
const XML_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;

type ParsedOutline = Opml.Outline<string, typeof EXTRA>;

const tooMany = () =>
  invalid(
    `the file has more than ${MAX_OUTLINES} outlines; split it into smaller files`,
    'opml_too_many_outlines',
  );
const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

function toOutlines(parsed: ParsedOutline[] | undefined): OpmlOutline[] {
  const roots: OpmlOutline[] = [];
  let count = 0;
  // breadth first with an explicit queue: nesting depth costs no stack
  const queue: { from: ParsedOutline[]; into: OpmlOutline[] }[] = [{ from: parsed ?? [], into: roots }];
  for (let item = queue.shift(); item; item = queue.shift()) {
    for (const p of item.from) {
      if (++count > MAX_OUTLINES) throw tooMany();
      const o: OpmlOutline = {
        text: str(p.text),
        title: str(p.title),
        type: str(p.type),
        xmlUrl: str(p.xmlUrl),
        htmlUrl: str(p.htmlUrl),
        kind: str(p['ais:kind']),
        enabled: str(p['ais:enabled']) === 'false' || str(p['miniflux:disabled']) === 'true' ? false : null,
        children: [],
      };
      item.into.push(o);
      if (p.outlines?.length) queue.push({ from: p.outlines, into: o.children });
    }
  }
  return roots;
}

let libraries: Promise<[typeof import('fast-xml-parser'), typeof import('feedsmith')]> | undefined;
const load = () => (libraries ??= Promise.all([import('fast-xml-parser'), import('feedsmith')]));

export class FeedsmithOpmlCodec implements OpmlCodec {
  async parse(bytes: Uint8Array, contentType?: string): Promise<OpmlDocument> {
    const [{ XMLValidator }, { parseOpml }] = await load();
    const { text } = decodeBody(bytes, contentType);
    const control = XML_CONTROL.exec(text);
    if (control)
      throw invalid(
        `the file contains the control character U+${control[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} on line ${lineOf(text, control.index)}, which XML does not allow`,
        'opml_control_characters',
      );
    // OPML needs no DTD: a declared entity can only be an attempt at expansion (billion laughs) or
    // at reading a file (XXE), so the document is refused rather than read with them left literal
    if (/<!ENTITY/i.test(text))
      throw invalid(
        'the file declares XML entities, which an OPML file never needs',
        'opml_entities_refused',
      );
    const xml = escapeBareAmpersands(text);
    const root = rootElementName(xml);
    if (root !== 'opml')
      throw invalid(root ? `not an OPML document (<${root}>)` : 'not an OPML document', 'opml_invalid');
    // counted before parsing, so parse work and nesting depth stay bounded too
    if ((xml.match(/<outline\b/gi)?.length ?? 0) > MAX_OUTLINES) throw tooMany();
    const valid = XMLValidator.validate(xml);
    if (valid !== true)
      throw invalid(
        `the file is not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`.slice(0, 300),
        'opml_malformed',
      );
    let doc: Opml.Document<string, typeof EXTRA>;
    try {
      doc = parseOpml(xml, { extraOutlineAttributes: EXTRA });
    } catch (err) {
      // fast-xml-parser stops at 100 nested elements (opml and body included)
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? '';
      if (err instanceof RangeError || /nested/i.test(cause))
        throw invalid('the outlines are nested more than 90 levels deep', 'opml_too_deep');
      throw invalid('the file is not an OPML document', 'opml_invalid');
    }
    return { title: str(doc.head?.title), outlines: toOutlines(doc.body?.outlines) };
  }

  async generate(doc: OpmlExport): Promise<string> {
    const head = { title: doc.title, dateCreated: doc.dateCreated };
    if (doc.folders.length === 0)
      // feedsmith writes no document without a body outline; an empty catalog is an empty body
      return [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<opml version="2.0">',
        '  <head>',
        `    <title>${doc.title.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</title>`,
        `    <dateCreated>${doc.dateCreated.toUTCString()}</dateCreated>`,
        '  </head>',
        '  <body/>',
        '</opml>',
        '',
      ].join('\n');
    const [, { generateOpml }] = await load();
    const outlines: Opml.Outline<Date, typeof GENERATED>[] = doc.folders.map((f) => ({
      text: f.name,
      title: f.name,
      outlines: f.feeds.length
        ? f.feeds.map((feed) => ({
            text: feed.name,
            title: feed.name,
            type: 'rss',
            xmlUrl: feed.url,
            ...(feed.kind !== 'rss' || !feed.enabled ? { 'xmlns:ais': AIS_NAMESPACE } : {}),
            ...(feed.kind !== 'rss' ? { 'ais:kind': feed.kind } : {}),
            ...(feed.enabled ? {} : { 'ais:enabled': 'false' }),
          }))
        : undefined,
    }));
    return `${generateOpml({ head, body: { outlines } }, { extraOutlineAttributes: GENERATED })}\n`;
  }
}
