/**
 * The plan of an OPML import (pure): which topics and sources to create, which feeds are
 * duplicates and which outlines cannot be imported, and why. The same function answers the
 * preview (`dry_run`) and, inside the import's transaction, decides what is written.
 */
import type { Source, SourceKind, Topic } from '../../domain/catalog.js';
import { cleanText, oneLine, slugify } from '../../domain/text.js';
import type { OpmlDocument, OpmlOutline } from './opml.ports.js';

/** the API's limits for a topic or source name and a source URL (catalog.routes.ts) */
export const NAME_MAX = 120;
export const URL_MAX = 2048;
/** a nested folder's topic is its path: "Science / Physics" */
export const FOLDER_SEPARATOR = ' / ';

export type InvalidReason =
  | 'missing_url'
  | 'bad_url'
  | 'not_http'
  | 'url_too_long'
  | 'control_characters'
  | 'unsupported_type'
  | 'empty_outline'
  | 'folder_name';

export interface PlannedTopic {
  name: string;
  slug: string;
  /** `existing`: the folder matches a topic of the catalog (by slug or name) */
  action: 'create' | 'existing';
  id: string | null;
  /** sources the import adds to it */
  sources: number;
}

export interface PlannedSource {
  topic: string;
  topicSlug: string;
  name: string;
  url: string;
  kind: SourceKind;
  enabled: boolean;
}

export interface DuplicateFeed {
  topic: string;
  name: string;
  url: string;
  /** `in_catalog`: a source with this URL exists; `in_file`: an earlier outline of the file has it */
  reason: 'in_catalog' | 'in_file';
  /** the topic that already holds the URL */
  existingTopic: string;
}

export interface InvalidOutline {
  /** the folder path the outline is in (null at the top level) */
  folder: string | null;
  text: string;
  url: string | null;
  reason: InvalidReason;
}

export interface ImportPlan {
  title: string | null;
  defaultTopic: string;
  topics: PlannedTopic[];
  sources: PlannedSource[];
  duplicates: DuplicateFeed[];
  invalid: InvalidOutline[];
}

/** outline types that name a feed this service reads (rss covers RSS, Atom and JSON Feed) */
const FEED_TYPES = new Set(['rss', 'atom', 'jsonfeed', 'json']);
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const URL_CONTROLS = /[\u0000-\u001f\u007f]/;

/** at most `max` characters (code points, so a surrogate pair is never cut) */
const cap = (s: string, max: number) => {
  const chars = Array.from(s);
  return chars.length <= max ? s : chars.slice(0, max).join('').trimEnd();
};
const label = (...values: (string | null)[]) => {
  for (const v of values) {
    const s = v === null ? '' : oneLine(cleanText(v));
    if (s) return s;
  }
  return '';
};

/** How two feed URLs are compared: as the WHATWG parser writes them (case of host, default port). */
export function urlKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

function checkUrl(url: string): InvalidReason | null {
  if (URL_CONTROLS.test(url)) return 'control_characters';
  if (url.length > URL_MAX) return 'url_too_long';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'bad_url';
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? null : 'not_http';
}

interface Frame {
  outline: OpmlOutline;
  /** names of the enclosing folders */
  path: string[];
}

export function planImport(
  doc: OpmlDocument,
  catalog: { topics: Topic[]; sources: Source[] },
  defaultTopic: string,
): ImportPlan {
  const bySlug = new Map(catalog.topics.map((t) => [t.slug, t]));
  const byName = new Map(catalog.topics.map((t) => [t.name.toLowerCase(), t]));
  const topicSlug = new Map(catalog.topics.map((t) => [t.id, t.slug]));
  /**
   * normalised URL + topic slug: a topic that holds the URL already (the catalog's sources, then
   * the file's earlier outlines). A feed listed in several folders joins each of their topics; it is
   * a duplicate only where its topic has it already.
   */
  const held = (url: string, slug: string) => `${slug} ${urlKey(url)}`;
  const inCatalog = new Set<string>();
  for (const s of catalog.sources) inCatalog.add(held(s.url, topicSlug.get(s.topicId) ?? ''));
  const inFile = new Set<string>();

  const topics = new Map<string, PlannedTopic>();
  const plan: ImportPlan = {
    title: doc.title,
    defaultTopic,
    topics: [],
    sources: [],
    duplicates: [],
    invalid: [],
  };

  const topicOf = (name: string): PlannedTopic => {
    const slug = slugify(name);
    let t = topics.get(slug);
    if (!t) {
      const existing = bySlug.get(slug) ?? byName.get(name.toLowerCase());
      t = existing
        ? { name: existing.name, slug: existing.slug, action: 'existing', id: existing.id, sources: 0 }
        : { name, slug, action: 'create', id: null, sources: 0 };
      topics.set(slug, t);
    }
    return t;
  };
  // a long path is cut at 120 characters, never right after a separator
  const folderName = (path: string[]) =>
    path.length ? cap(path.join(FOLDER_SEPARATOR), NAME_MAX).replace(/\s*\/$/, '') : defaultTopic;
  const refuse = (o: OpmlOutline, path: string[], reason: InvalidReason, url = o.xmlUrl) =>
    plan.invalid.push({
      folder: path.length ? path.join(FOLDER_SEPARATOR) : null,
      text: cap(label(o.title, o.text), 200),
      url: url === null ? null : cap(cleanText(url), 500),
      reason,
    });

  const addFeed = (o: OpmlOutline, url: string, path: string[]) => {
    const bad = checkUrl(url);
    if (bad) return refuse(o, path, bad);
    const name = cap(label(o.title, o.text) || new URL(url).host, NAME_MAX);
    const topic = folderName(path);
    const slug = slugify(topic);
    const key = held(url, bySlug.get(slug)?.slug ?? byName.get(topic.toLowerCase())?.slug ?? slug);
    if (inCatalog.has(key) || inFile.has(key)) {
      const existing = bySlug.get(slug) ?? byName.get(topic.toLowerCase());
      plan.duplicates.push({
        topic,
        name,
        url,
        reason: inCatalog.has(key) ? 'in_catalog' : 'in_file',
        existingTopic: existing?.name ?? topics.get(slug)?.name ?? topic,
      });
      return;
    }
    const t = topicOf(topic);
    inFile.add(key);
    t.sources++;
    plan.sources.push({
      topic: t.name,
      topicSlug: t.slug,
      name,
      url,
      kind: o.kind === 'arxiv' ? 'arxiv' : 'rss',
      enabled: o.enabled !== false,
    });
  };

  // depth first in document order, without recursion (the codec bounds the outline count)
  const stack: Frame[] = doc.outlines.map((outline) => ({ outline, path: [] })).reverse();
  const push = (children: OpmlOutline[], path: string[]) => {
    for (let i = children.length - 1; i >= 0; i--) stack.push({ outline: children[i]!, path });
  };
  for (let frame = stack.pop(); frame; frame = stack.pop()) {
    const { outline: o, path } = frame;
    const type = o.type?.toLowerCase() ?? null;
    if (o.xmlUrl !== null) {
      if (type === null || FEED_TYPES.has(type)) addFeed(o, o.xmlUrl, path);
      else refuse(o, path, 'unsupported_type');
      push(o.children, path);
      continue;
    }
    if (type !== null && type !== 'folder' && type !== 'category') {
      refuse(o, path, FEED_TYPES.has(type) ? 'missing_url' : 'unsupported_type', null);
      push(o.children, path);
      continue;
    }
    // a folder: a topic when it holds feeds or is empty; nameless or unnameable, it is see-through
    const name = cap(label(o.text, o.title), NAME_MAX);
    if (!name && o.children.length === 0) {
      refuse(o, path, 'empty_outline', null);
      continue;
    }
    if (name && !slugify(name)) {
      refuse(o, path, 'folder_name', null);
      push(o.children, path);
      continue;
    }
    const inner = name ? [...path, name] : path;
    if (o.children.length === 0) {
      const t = topicOf(folderName(inner));
      if (t.action === 'existing' && t.sources === 0) topics.delete(t.slug);
    }
    push(o.children, inner);
  }

  plan.topics = [...topics.values()];
  return plan;
}
