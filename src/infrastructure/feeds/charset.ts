/**
 * Bytes of a fetched document to text. The charset comes from, in order: the HTTP Content-Type
 * header, a byte order mark, the XML declaration, an HTML `<meta charset>`, else UTF-8. Only the
 * first 1024 bytes are looked at for a declaration (the HTML prescan's window), so the cost does
 * not grow with the body.
 */
import { createRequire } from 'node:module';

/**
 * iconv-lite, for a body in another charset than UTF-8, is loaded by the first such body: with its
 * single-byte code pages (~0.5 MB of source held once loaded) it is not in a service that reads
 * only UTF-8.
 */
let iconvLite: typeof import('iconv-lite') | undefined;
const iconv = () =>
  (iconvLite ??= createRequire(import.meta.url)('iconv-lite') as typeof import('iconv-lite'));

const PRESCAN = 1024;

/** The charset parameter of a Content-Type header value. */
export function headerCharset(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  for (const part of contentType.split(';').slice(1)) {
    const [key, value] = part.split('=', 2).map((s) => s.trim());
    if (key?.toLowerCase() === 'charset' && value) return value.replace(/^["']|["']$/g, '') || null;
  }
  return null;
}

function bomCharset(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** `encoding` of `<?xml ...?>` or the charset of `<meta charset>` / `<meta http-equiv content>`. */
function declaredCharset(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.subarray(0, PRESCAN)).toString('latin1');
  const xml = /^\s*<\?xml\s[^>]*?encoding\s*=\s*["']([\w.:-]{1,40})["']/i.exec(head);
  if (xml) return xml[1]!;
  return /<meta\s[^>]*?charset\s*=\s*["']?([\w.:-]{1,40})/i.exec(head)?.[1] ?? null;
}

/**
 * UTF-8, nearly every feed and page, is read by the WHATWG decoder: a 5 MB body takes ~0.6 ms of
 * the event loop where iconv-lite (Node's StringDecoder) takes ~4 ms. The text is the same: a
 * leading BOM dropped, each bad sequence replaced by U+FFFD.
 */
const utf8 = new TextDecoder('utf-8');
/** the name as iconv-lite compares them: lower case, letters and digits only */
const isUtf8 = (charset: string) => charset.toLowerCase().replace(/[^0-9a-z]/g, '') === 'utf8';

const usable = (charset: string | null): charset is string =>
  !!charset && (isUtf8(charset) || iconv().encodingExists(charset));

/** The text of a body and the charset it was read with. */
export function decodeBody(
  bytes: Uint8Array,
  contentType: string | null | undefined,
): { text: string; charset: string } {
  const charset =
    [headerCharset(contentType), bomCharset(bytes), declaredCharset(bytes)].find(usable) ?? 'utf-8';
  return {
    text: isUtf8(charset)
      ? utf8.decode(bytes)
      : iconv().decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), charset),
    charset,
  };
}
