import type { CitationSource } from '../../application/metrics/metrics.ports.js';
import type { ArticleIdentifiers } from '../../domain/metrics.js';
import { CitationHttpClient, type CitationHttpOptions } from './citation-http.client.js';

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const field = (body: unknown, key: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;

/** A citation API read over HTTP through the provider's rate-limited, retrying client. */
abstract class HttpCitationSource implements CitationSource {
  abstract readonly provider: string;
  private http?: CitationHttpClient;
  constructor(
    private readonly baseUrl: string,
    private readonly opts: CitationHttpOptions,
  ) {}
  abstract canLookUp(ids: ArticleIdentifiers): boolean;
  abstract citations(ids: ArticleIdentifiers): Promise<number | null>;

  /** GET {baseUrl}{path} as JSON */
  protected getJson(path: string): Promise<unknown> {
    // created on first use: `provider` is a field of the subclass, set after this constructor
    this.http ??= new CitationHttpClient(this.provider, this.opts);
    return this.http.getJson(`${this.baseUrl}${path}`);
  }
}

/** Semantic Scholar Graph API: DOI:<doi> or ARXIV:<id> → citationCount. */
export class SemanticScholarSource extends HttpCitationSource {
  readonly provider = 'semantic_scholar';
  canLookUp(ids: ArticleIdentifiers) {
    return !!(ids.doi || ids.arxivId);
  }
  async citations(ids: ArticleIdentifiers) {
    const paper = ids.doi ? `DOI:${ids.doi}` : `ARXIV:${ids.arxivId}`;
    return count(field(await this.getJson(`/graph/v1/paper/${paper}?fields=citationCount`), 'citationCount'));
  }
}

/** OpenAlex: /works/doi:<doi> → cited_by_count; arXiv papers through their DataCite DOI. */
export class OpenAlexSource extends HttpCitationSource {
  readonly provider = 'openalex';
  canLookUp(ids: ArticleIdentifiers) {
    return !!(ids.doi || ids.arxivId);
  }
  async citations(ids: ArticleIdentifiers) {
    const doi = ids.doi ?? `10.48550/arXiv.${ids.arxivId}`;
    return count(field(await this.getJson(`/works/doi:${doi}`), 'cited_by_count'));
  }
}

/** Crossref: /works/<doi> → message.is-referenced-by-count (DOI only). */
export class CrossrefSource extends HttpCitationSource {
  readonly provider = 'crossref';
  canLookUp(ids: ArticleIdentifiers) {
    return !!ids.doi;
  }
  async citations(ids: ArticleIdentifiers) {
    const body = await this.getJson(`/works/${ids.doi}`);
    return count(field(field(body, 'message'), 'is-referenced-by-count'));
  }
}
