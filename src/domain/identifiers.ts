/**
 * An article's identity as de-duplication and works compare it: its canonical URL (tracking
 * parameters removed), its normalized title and its arXiv id (DOIs: doi.ts).
 */

const TRACKING =
  /^(utm_\w+|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|mc_cid|mc_eid|igshid|_hsenc|_hsmi|_ga|_gl|ref|ref_src|ref_url|spm|cmpid|share|s_cid|oly_enc_id|oly_anon_id|vero_id|wt_mc|mkt_tok)$/i;

/** https, lower-case host without www, no default port, fragment or tracking parameters, sorted query. */
export function canonicalizeUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return raw.trim();
  }
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  const port = u.port && u.port !== '80' && u.port !== '443' ? `:${u.port}` : '';
  const params = [...u.searchParams.entries()]
    .filter(([k]) => !TRACKING.test(k))
    .sort(([a, av], [b, bv]) => (a === b ? av.localeCompare(bv) : a.localeCompare(b)));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : '';
  let path = u.pathname.replace(/\/{2,}/g, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  if (path === '/') path = '';
  const scheme = u.protocol === 'http:' || u.protocol === 'https:' ? 'https:' : u.protocol;
  return `${scheme}//${host}${port}${path}${query}`;
}

/** Lower-case letters and digits only, accents removed, single spaces. */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Titles this short ("Editorial", "News") collide by chance: not used as a duplicate key. */
const MIN_TITLE_KEY = 12;
export const titleKey = (normalized: string): string | null =>
  normalized.length >= MIN_TITLE_KEY ? normalized : null;

const ARXIV_NEW = /(?:arxiv\.org\/(?:abs|pdf|html)\/|arxiv:\s*)(\d{4}\.\d{4,5})(?:v\d+)?/i;
const ARXIV_OLD = /(?:arxiv\.org\/(?:abs|pdf)\/|arxiv:\s*)([a-z-]+(?:\.[a-z]{2})?\/\d{7})(?:v\d+)?/i;
const ARXIV_DOI = /10\.48550\/arxiv\.(\d{4}\.\d{4,5})/i;

/** The arXiv identifier without its version (2401.12345, hep-th/9901001). */
export function extractArxivId(...texts: (string | null | undefined)[]): string | null {
  for (const t of texts) {
    if (!t) continue;
    const m = ARXIV_NEW.exec(t) ?? ARXIV_OLD.exec(t) ?? ARXIV_DOI.exec(t);
    if (m) return m[1]!.toLowerCase();
  }
  return null;
}
