import type { SourceKind } from '../../domain/catalog.js';
import type { SourceInput, SourceRepository, TopicRepository } from './catalog.ports.js';

/**
 * One outline of an OPML file as the codec hands it over: text already decoded, trimmed and free of
 * markup; fields the file does not set are null. `children` keeps the file's nesting.
 */
export interface OpmlOutline {
  text: string | null;
  title: string | null;
  type: string | null;
  xmlUrl: string | null;
  htmlUrl: string | null;
  /** our own export's `ais:kind` (absent: rss) */
  kind: string | null;
  /** false when the file marks the feed disabled (`ais:enabled="false"`, `miniflux:disabled="true"`) */
  enabled: boolean | null;
  children: OpmlOutline[];
}

export interface OpmlDocument {
  /** `<head><title>` */
  title: string | null;
  outlines: OpmlOutline[];
}

/** What an export writes: one folder per topic, one feed outline per source. */
export interface OpmlExport {
  title: string;
  dateCreated: Date;
  folders: {
    name: string;
    feeds: { name: string; url: string; kind: SourceKind; enabled: boolean }[];
  }[];
}

/**
 * Reads and writes OPML 2.0. `parse` is the one gate for the uploaded bytes: it decodes the
 * charset, refuses what is not a well-formed, entity-free OPML document within the limits
 * (AppError `Invalid` with an `opml_*` code) and returns plain values. Both are asynchronous so
 * that an adapter may load its parser on first use.
 */
export interface OpmlCodec {
  parse(bytes: Uint8Array, contentType?: string): Promise<OpmlDocument>;
  generate(doc: OpmlExport): Promise<string>;
}

export interface CatalogRepositories {
  topics: TopicRepository;
  sources: SourceRepository;
  /** many sources in a few multi-row statements (an import may hold thousands); answers the count */
  insertSources(inputs: SourceInput[]): Promise<number>;
}

/** The catalog's repositories inside one database transaction: all of `fn`'s writes or none. */
export interface CatalogTransactions {
  transaction<T>(fn: (repos: CatalogRepositories) => Promise<T>): Promise<T>;
}

/**
 * The outbound rules of URLs that came from outside (item links: FETCH_ALLOWED_HOSTS and the SSRF
 * guard's ranges), applied to an imported feed's URL: why it may not be fetched (its host is a
 * loopback, private, link-local or metadata address, by literal or by DNS), or null. A host whose
 * name does not resolve now is not judged here.
 */
export interface OutboundPolicy {
  refusal(url: string): Promise<string | null>;
}
