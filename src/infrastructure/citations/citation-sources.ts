import type { CitationSource } from '../../application/metrics/metrics.ports.js';
import type { ArticleIdentifiers } from '../../domain/metrics.js';
import { CitationHttpClient, type CitationHttpOptions } from './citation-http.client.js';

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const field = (body: unknown, key: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;

/** Semantic Scholar Graph API: DOI:<doi> or ARXIV:<id> → citationCount. */
export class SemanticScholarSource implements CitationSource {
  readonly provider = 'semantic_scholar';
  private readonly http: CitationHttpClient;
  constructor(
    private readonly baseUrl: string,
    opts: CitationHttpOptions,
  ) {
    this.http = new CitationHttpClient(this.provider, opts);
  }
  canLookUp(ids: ArticleIdentifiers) {
    return !!(ids.doi || ids.arxivId);
  }
  async citations(ids: ArticleIdentifiers) {
    const paper = ids.doi ? `DOI:${ids.doi}` : `ARXIV:${ids.arxivId}`;
    const body = await this.http.getJson(`${this.baseUrl}/graph/v1/paper/${paper}?fields=citationCount`);
    return count(field(body, 'citationCount'));
  }
}

/** OpenAlex: /works/doi:<doi> → cited_by_count; arXiv papers through their DataCite DOI. */
export class OpenAlexSource implements CitationSource {
  readonly provider = 'openalex';
  private readonly http: CitationHttpClient;
  constructor(
    private readonly baseUrl: string,
    opts: CitationHttpOptions,
  ) {
    this.http = new CitationHttpClient(this.provider, opts);
  }
  canLookUp(ids: ArticleIdentifiers) {
    return !!(ids.doi || ids.arxivId);
  }
  async citations(ids: ArticleIdentifiers) {
    const doi = ids.doi ?? `10.48550/arXiv.${ids.arxivId}`;
    const body = await this.http.getJson(`${this.baseUrl}/works/doi:${doi}`);
    return count(field(body, 'cited_by_count'));
  }
}

/** Crossref: /works/<doi> → message.is-referenced-by-count (DOI only). */
export class CrossrefSource implements CitationSource {
  readonly provider = 'crossref';
  private readonly http: CitationHttpClient;
  constructor(
    private readonly baseUrl: string,
    opts: CitationHttpOptions,
  ) {
    this.http = new CitationHttpClient(this.provider, opts);
  }
  canLookUp(ids: ArticleIdentifiers) {
    return !!ids.doi;
  }
  async citations(ids: ArticleIdentifiers) {
    const body = await this.http.getJson(`${this.baseUrl}/works/${ids.doi}`);
    return count(field(field(body, 'message'), 'is-referenced-by-count'));
  }
}
