import { extractDoi } from './doi.js';

/** Lucide icon names an admin may give a catalog metric (a fixed list of 20: GET /admin/metric-definitions/icons). */
export const METRIC_ICONS = [
  'quote',
  'download',
  'share-2',
  'bookmark',
  'heart',
  'message-square',
  'flame',
  'trophy',
  'hash',
  'percent',
  'clock',
  'book-open',
  'network',
  'eye',
  'star',
  'thumbs-up',
  'trending-up',
  'award',
  'users',
  'git-fork',
] as const;

export type MetricIcon = (typeof METRIC_ICONS)[number];

export const isMetricIcon = (name: string): name is MetricIcon =>
  (METRIC_ICONS as readonly string[]).includes(name);

export interface MetricDefinition {
  id: string;
  metricKey: string;
  labelI18nKey: string;
  iconName: string | null;
  formatHint: string;
  unit: string;
  enabled: boolean;
}

export interface ArticleIdentifiers {
  doi: string | null;
  arxivId: string | null;
}

const ARXIV_URL_RE = /arxiv\.org\/(?:abs|pdf)\/([a-z-]+(?:\.[a-z]{2})?\/\d{7}|\d{4}\.\d{4,5})/i;
const ARXIV_ID_RE = /^(?:arxiv:)?([a-z-]+(?:\.[a-z]{2})?\/\d{7}|\d{4}\.\d{4,5})(?:v\d+)?$/i;
const ARXIV_DOI_RE = /^10\.48550\/arxiv\.(.+)$/i;

/** The DOI in a value or a link (Crossref's patterns, SICI DOIs whole), lower-cased. */
export const normalizeDoi = (raw: string): string | null => extractDoi(raw);

export function normalizeArxivId(raw: string): string | null {
  const s = raw.trim();
  const url = ARXIV_URL_RE.exec(s);
  if (url) return url[1]!.toLowerCase();
  const m = ARXIV_ID_RE.exec(s);
  return m ? m[1]!.toLowerCase() : null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/**
 * The doi and arXiv id of an article: its columns first, then its metadata (doi / arxiv_id keys,
 * or a doi.org / arxiv.org link among its URLs). An arXiv DOI (10.48550/arXiv.<id>) also gives the id.
 */
export function resolveIdentifiers(article: {
  doi: string | null;
  arxivId: string | null;
  url?: string | null;
  metadata: Record<string, unknown>;
}): ArticleIdentifiers {
  const m = article.metadata ?? {};
  const urls = [article.url, m.url, m.link, m.pdf_url, m.doi_url, m.arxiv_url, m.canonical_url]
    .map(str)
    .filter((u): u is string => !!u);
  let doi: string | null = null;
  for (const c of [article.doi, str(m.doi), str(m.DOI), ...urls.filter((u) => /doi\.org\//i.test(u))]) {
    if (c && (doi = normalizeDoi(c))) break;
  }
  let arxivId: string | null = null;
  for (const c of [article.arxivId, str(m.arxiv_id), str(m.arxivId), str(m.arxiv), ...urls]) {
    if (c && (arxivId = normalizeArxivId(c))) break;
  }
  if (!arxivId && doi) {
    const a = ARXIV_DOI_RE.exec(doi);
    if (a) arxivId = normalizeArxivId(a[1]!);
  }
  return { doi, arxivId };
}
