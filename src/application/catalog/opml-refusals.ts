/**
 * Imported feeds judged by the outbound rules of URLs from outside: an OPML file is a list of URLs
 * nobody reviewed, so a feed on a loopback, private or metadata address is refused unless the admin
 * allows its host for this import. Hosts are judged once each, a few at a time.
 */
import type { ImportPlan } from './opml-plan.js';
import type { OutboundPolicy } from './opml.ports.js';

export interface RefusedFeed {
  topic: string;
  name: string;
  url: string;
  /** the host the admin may allow (`allow_hosts`) */
  host: string;
  reason: string;
}

/** hosts judged at once (each may wait for DNS) */
const PARALLEL = 8;

export const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return '';
  }
};

/** a host the admin allows, as a name or a URL: lower case, IPv6 without brackets */
export const allowedHost = (entry: string): string =>
  entry.includes('://')
    ? hostOf(entry)
    : entry
        .trim()
        .replace(/^\[|\]$/g, '')
        .toLowerCase();

/** host → why it is refused, for every feed host of the plan not in `allowed` */
export async function judgeHosts(
  plan: ImportPlan,
  policy: OutboundPolicy,
  allowed: ReadonlySet<string>,
): Promise<Map<string, string>> {
  const urls = new Map<string, string>();
  for (const { url } of [...plan.sources, ...plan.duplicates]) {
    const host = hostOf(url);
    if (host && !allowed.has(host) && !urls.has(host)) urls.set(host, url);
  }
  const refused = new Map<string, string>();
  const queue = [...urls];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const reason = await policy.refusal(next[1]);
      if (reason) refused.set(next[0], reason);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
  return refused;
}

/** The plan without the refused feeds; a topic to create that only they filled is left out too. */
export function withoutRefused(
  plan: ImportPlan,
  refusedHosts: ReadonlyMap<string, string>,
): { plan: ImportPlan; refused: RefusedFeed[] } {
  if (!refusedHosts.size) return { plan, refused: [] };
  const refused: RefusedFeed[] = [];
  const kept = plan.sources.filter((s) => {
    const host = hostOf(s.url);
    const reason = refusedHosts.get(host);
    if (reason === undefined) return true;
    refused.push({ topic: s.topic, name: s.name, url: s.url, host, reason });
    return false;
  });
  const lost = new Map<string, number>();
  for (const s of plan.sources)
    if (refusedHosts.has(hostOf(s.url))) lost.set(s.topicSlug, (lost.get(s.topicSlug) ?? 0) + 1);
  const topics = plan.topics
    .map((t) => ({ ...t, sources: t.sources - (lost.get(t.slug) ?? 0) }))
    .filter((t) => !(t.action === 'create' && t.sources === 0 && lost.has(t.slug)));
  return { plan: { ...plan, sources: kept, topics }, refused };
}
