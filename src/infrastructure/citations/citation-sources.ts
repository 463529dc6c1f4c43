import type { CitationSource } from '../../application/metrics/metrics.ports.js';
import type { ArticleIdentifiers } from '../../domain/metrics.js';
import {
  crossrefLinks,
  openAlexLinks,
  semanticScholarLinks,
  type IdentifierLink,
} from '../../domain/works.js';
import { CitationHttpClient, type CitationHttpOptions } from './citation-http.client.js';

const count = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const field = (body: unknown, key: string): unknown =>
  body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;

/**
 * An identifier as a piece of an API path: what encodeURIComponent encodes is percent-encoded
 * (SICI DOIs carry `<`, `>`, `;` and `#`, which would end or split the path), the DOI's `/` kept as
 * the APIs document it, unless a `.` or `..` segment would let the URL parser walk up the API's
 * path: then `/` and `.` are encoded too.
 */
export function pathId(id: string): string {
  const segments = id.split('/');
  if (segments.some((s) => s === '.' || s === '..')) return encodeURIComponent(id).replace(/\./g, '%2E');
  return segments.map(encodeURIComponent).join('/');
}

/**
 * Receives the identifiers an answer names as one paper or two versions of it (the works area
 * stores them), read from answers the lookup receives anyway: never an extra request. Its failure
 * never fails the lookup.
 */
export type IdentifierLinkSink = (links: IdentifierLink[]) => Promise<void>;

export interface CitationSourceOptions extends CitationHttpOptions {
  onLinks?: IdentifierLinkSink;
}

/** A citation API read over HTTP through the provider's rate-limited, retrying client. */
abstract class HttpCitationSource implements CitationSource {
  abstract readonly provider: string;
  private client?: CitationHttpClient;
  private readonly opts: CitationHttpOptions;
  private readonly onLinks?: IdentifierLinkSink;
  constructor(
    private readonly baseUrl: string,
    { onLinks, ...opts }: CitationSourceOptions,
  ) {
    this.opts = opts;
    this.onLinks = onLinks;
  }

  /** hands the links of an answer to the sink; a failing sink is not this lookup's failure */
  protected async report(links: IdentifierLink[]): Promise<void> {
    if (!links.length || !this.onLinks) return;
    try {
      await this.onLinks(links);
    } catch {
      // the links come again with the next refresh of this article
    }
  }
  abstract canLookUp(ids: ArticleIdentifiers): boolean;
  abstract citations(ids: ArticleIdentifiers): Promise<number | null>;

  protected get http(): CitationHttpClient {
    // created on first use: `provider` is a field of the subclass, set after this constructor
    return (this.client ??= new CitationHttpClient(this.provider, this.opts));
  }

  /** GET {baseUrl}{path} as JSON */
  protected getJson(path: string): Promise<unknown> {
    return this.http.getJson(`${this.baseUrl}${path}`);
  }
}

/** Ids per batch request (the Graph API's limit). */
export const SEMANTIC_SCHOLAR_BATCH = 500;

/**
 * Semantic Scholar Graph API: DOI:<doi> or ARXIV:<id> → citationCount. With an API key
 * (`x-api-key`) the key's own rate limit applies. A DOI it does not know is retried by the arXiv id.
 */
export class SemanticScholarSource extends HttpCitationSource {
  readonly provider = 'semantic_scholar';
  private readonly batchUrl: string;
  constructor(baseUrl: string, opts: CitationSourceOptions & { apiKey?: string }) {
    const { apiKey, ...rest } = opts;
    super(baseUrl, apiKey ? { ...rest, headers: { ...rest.headers, 'x-api-key': apiKey } } : rest);
    this.batchUrl = `${baseUrl}/graph/v1/paper/batch?fields=citationCount,externalIds`;
  }

  canLookUp(ids: ArticleIdentifiers) {
    return !!(ids.doi || ids.arxivId);
  }

  async citations(ids: ArticleIdentifiers) {
    // externalIds rides along (the DOI and arXiv id of one paper, for works): no extra request
    if (ids.doi) {
      const paper = await this.getJson(
        `/graph/v1/paper/DOI:${pathId(ids.doi)}?fields=citationCount,externalIds`,
      );
      await this.report(semanticScholarLinks(paper));
      if (paper !== null || !ids.arxivId) return count(field(paper, 'citationCount'));
    }
    const paper = await this.getJson(
      `/graph/v1/paper/ARXIV:${pathId(ids.arxivId!)}?fields=citationCount,externalIds`,
    );
    await this.report(semanticScholarLinks(paper));
    return count(field(paper, 'citationCount'));
  }

  /** POST /graph/v1/paper/batch, 500 ids a request; DOIs it does not know are asked again by arXiv id. */
  async citationsBatch(list: ArticleIdentifiers[]): Promise<(number | null)[]> {
    const out: (number | null)[] = list.map(() => null);
    const asks = list.flatMap((ids, i) => {
      const id = ids.doi ? `DOI:${ids.doi}` : ids.arxivId ? `ARXIV:${ids.arxivId}` : null;
      return id ? [{ i, id }] : [];
    });
    const unknown = await this.batch(asks, out);
    const byArxiv = unknown
      .filter((i) => list[i]!.doi && list[i]!.arxivId)
      .map((i) => ({ i, id: `ARXIV:${list[i]!.arxivId}` }));
    await this.batch(byArxiv, out);
    return out;
  }

  /** fills `out` with what the API knows; returns the entries it does not know (null answers) */
  private async batch(asks: { i: number; id: string }[], out: (number | null)[]): Promise<number[]> {
    const unknown: number[] = [];
    for (let from = 0; from < asks.length; from += SEMANTIC_SCHOLAR_BATCH) {
      const chunk = asks.slice(from, from + SEMANTIC_SCHOLAR_BATCH);
      // ~100 bytes a paper with its external ids; 8 MB leaves room and still bounds the answer
      const papers = await this.http.postJson(this.batchUrl, { ids: chunk.map((a) => a.id) }, 8 << 20);
      if (!Array.isArray(papers) || papers.length !== chunk.length)
        throw new Error(`${this.provider} batch answer does not match the ${chunk.length} ids asked`);
      chunk.forEach((a, k) => {
        const paper: unknown = papers[k];
        if (paper === null || typeof paper !== 'object') unknown.push(a.i);
        else out[a.i] = count(field(paper, 'citationCount'));
      });
      await this.report(papers.flatMap((p: unknown) => semanticScholarLinks(p)));
    }
    return unknown;
  }
}

/**
 * OpenAlex: /works/doi:<doi> → cited_by_count; arXiv papers through their DataCite DOI, also when
 * the publisher DOI is unknown. `mailto` puts the requests in OpenAlex's polite pool.
 */
export class OpenAlexSource extends HttpCitationSource {
  readonly provider = 'openalex';
  private readonly query: string;
  constructor(baseUrl: string, opts: CitationSourceOptions & { mailto?: string }) {
    const { mailto, ...rest } = opts;
    super(baseUrl, rest);
    this.query = mailto ? `?${new URLSearchParams({ mailto }).toString()}` : '';
  }
  canLookUp(ids: ArticleIdentifiers) {
    return !!(ids.doi || ids.arxivId);
  }
  async citations(ids: ArticleIdentifiers) {
    const arxivDoi = ids.arxivId ? `10.48550/arXiv.${ids.arxivId}` : null;
    if (ids.doi) {
      const work = await this.getJson(`/works/doi:${pathId(ids.doi)}${this.query}`);
      await this.report(openAlexLinks(work));
      const sameDoi = arxivDoi !== null && arxivDoi.toLowerCase() === ids.doi.toLowerCase();
      if (work !== null || !arxivDoi || sameDoi) return count(field(work, 'cited_by_count'));
    }
    const work = await this.getJson(`/works/doi:${pathId(arxivDoi!)}${this.query}`);
    await this.report(openAlexLinks(work));
    return count(field(work, 'cited_by_count'));
  }
}

/** Crossref: /works/<doi> → message.is-referenced-by-count (DOI only). */
export class CrossrefSource extends HttpCitationSource {
  readonly provider = 'crossref';
  canLookUp(ids: ArticleIdentifiers) {
    return !!ids.doi;
  }
  async citations(ids: ArticleIdentifiers) {
    const body = await this.getJson(`/works/${pathId(ids.doi!)}`);
    await this.report(crossrefLinks(body));
    return count(field(field(body, 'message'), 'is-referenced-by-count'));
  }
}

/** `article-intel/<version> (mailto:<address>)`: how Crossref's polite pool wants a client named. */
export const citationUserAgent = (version: string, mailto?: string): string =>
  `article-intel/${version}${mailto ? ` (mailto:${mailto})` : ''}`;
