import { resolveIdentifiers } from '../../domain/metrics.js';
import {
  arxivEntryLinks,
  bandKeys,
  bestVersion,
  COPY_WINDOW_MS,
  fingerprint,
  isCopy,
  ownIdentifiers,
  references,
  versionRole,
  type IdentifierKey,
  type TextFingerprint,
} from '../../domain/works.js';
import { canonicalizeUrl } from '../../domain/identifiers.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { LinkArticle, WorkDecision, WorkLinkStore, WorkMember } from './works.ports.js';

/** Articles linked in one locked batch at most; a longer list is worked off batch by batch. */
export const LINK_BATCH = 100;
/** Copy candidates compared per article at most (a bucket shared by many boilerplate texts). */
const MAX_COPY_CANDIDATES = 200;
/** Articles of a work read at most when merging (a work of more is left as it is and logged). */
const MAX_WORK_SIZE = 500;

/** Articles per batch of a backlog at most (`works:link --batch`). */
export const MAX_BACKLOG_BATCH = 1000;

export interface BacklogProgress {
  /** articles linked so far */
  done: number;
  /** the backlog's size (grows when articles arrive while it runs) */
  total: number;
}

export interface LinkSummary {
  articles: number;
  /** works that gained members */
  merged: number;
  /** articles found to be coverage of another work */
  coverage: number;
}

const isIdentifier = (k: string): k is IdentifierKey => k.startsWith('doi:') || k.startsWith('arxiv:');
const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

/**
 * Groups articles into works (docs/decisions/0125-works.md): versions of one paper by identifiers
 * the citation APIs gave (links), copies of one story by near-identical texts within
 * COPY_WINDOW_MS, never by titles; an admin's split or merge always wins. Records what each
 * article references, and counts each touched work's coverage again. Idempotent: linking an
 * article twice changes nothing the second time.
 */
export class WorkLinker {
  constructor(
    private readonly store: WorkLinkStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async linkArticles(ids: readonly string[]): Promise<LinkSummary> {
    const unique = [...new Set(ids)];
    const summary: LinkSummary = { articles: 0, merged: 0, coverage: 0 };
    for (let from = 0; from < unique.length; from += LINK_BATCH) {
      const batch = unique.slice(from, from + LINK_BATCH);
      await this.store.locked(async (s) => {
        const touched = new Set<string>();
        const articles = (await s.articles(batch)).map((a) => {
          const fp = a.text ? fingerprint(a.text) : null;
          return { a, fp, bands: fp ? bandKeys(fp.signature) : [] };
        });
        // the batch's fingerprints first, in one set of statements: copies within the batch find
        // each other as copies stored earlier do
        await s.saveFingerprints(
          articles.map(({ a, fp, bands }) => ({ articleId: a.id, at: a.at, fp, bands })),
        );
        const references: { articleId: string; refKeys: string[] }[] = [];
        for (const { a, fp, bands } of articles) {
          summary.articles++;
          references.push({
            articleId: a.id,
            refKeys: await this.linkOne(s, a, fp, bands, touched, summary),
          });
        }
        await s.saveReferences(references);
        await s.refreshCoverage([...touched]);
      });
    }
    return summary;
  }

  /** Links, for new answers of the citation APIs: stores them and links the articles they name again. */
  async recordLinks(links: Parameters<WorkLinkStore['saveLinks']>[0]): Promise<string[]> {
    if (!links.length) return [];
    // one answer may name a link twice (a batch asked for a preprint and its published version
    // gets the same paper twice): one row per link, or the upsert refuses the whole statement
    const unique = [...new Map(links.map((l) => [`${l.from} ${l.to}`, l])).values()];
    await this.store.saveLinks(unique);
    return this.store.articleIdsByIdentifiers([...new Set(unique.flatMap((l) => [l.from, l.to]))]);
  }

  /**
   * The backlog the tick never reaches (it looks one day back): every final article stored since
   * `since` and never linked, `batch` articles at a time (oldest first, each batch one locked
   * pass). Idempotent: a linked article is not read again, so a second run finds nothing, and an
   * interrupted run goes on where it stopped.
   */
  async linkBacklog(
    since: Date,
    opts: { batch?: number; progress?: (p: BacklogProgress) => void } = {},
  ): Promise<LinkSummary & { batches: number }> {
    const batch = Math.max(1, Math.min(Math.floor(opts.batch ?? LINK_BATCH), MAX_BACKLOG_BATCH));
    const summary = { articles: 0, merged: 0, coverage: 0, batches: 0 };
    let total = await this.store.unlinkedCount(since);
    let done = 0;
    opts.progress?.({ done, total });
    let previous = new Set<string>();
    for (;;) {
      const ids = await this.store.unlinked(since, batch);
      // an article the linker cannot read (deleted meanwhile) is answered again: never loop on it
      if (!ids.length || ids.every((id) => previous.has(id))) break;
      const linked = await this.linkArticles(ids);
      summary.articles += linked.articles;
      summary.merged += linked.merged;
      summary.coverage += linked.coverage;
      summary.batches++;
      previous = new Set(ids);
      done += ids.length;
      total = Math.max(total, done);
      opts.progress?.({ done, total });
    }
    // fewer than counted (the tick linked some meanwhile): the backlog was that size
    if (done < total) opts.progress?.({ done, total: done });
    return summary;
  }

  /** Articles stored in the last day and never linked: for the tick that links what arrived. */
  unlinked(limit: number): Promise<string[]> {
    return this.store.unlinked(new Date(this.clock.now().getTime() - 24 * 60 * 60 * 1000), limit);
  }

  /** links one article (its fingerprint is stored); answers what it references, for the batch to store */
  private async linkOne(
    s: WorkLinkStore,
    a: LinkArticle,
    fp: TextFingerprint | null,
    bands: number[],
    touched: Set<string>,
    summary: LinkSummary,
  ): Promise<string[]> {
    const ids = resolveIdentifiers(a);
    const own = ownIdentifiers(ids);
    const fromFeed = arxivEntryLinks(ids.arxivId, a.metadata);
    if (fromFeed.length) await s.saveLinks(fromFeed);

    // versions: articles carrying one of its identifiers or one an API linked to them
    const keys = new Set<IdentifierKey>(own);
    if (own.length) for (const l of await s.linksOf(own)) keys.add(l.from).add(l.to);
    const neighbours: WorkMember[] = keys.size ? await s.byIdentifiers([...keys]) : [];

    // copies: only between articles without paper identifiers (those decide for papers)
    if (fp && !own.length) {
      const from = new Date(a.at.getTime() - COPY_WINDOW_MS);
      const to = new Date(a.at.getTime() + COPY_WINDOW_MS);
      for (const c of await s.copyCandidates(a.id, bands, from, to, MAX_COPY_CANDIDATES))
        if (!ownIdentifiers(c).length && isCopy(fp, c.fingerprint)) neighbours.push(c);
    }

    const workId = await this.merge(s, a, neighbours, summary);
    touched.add(workId);

    // coverage: what its text links to or names, outside its own work
    const refs = references(a.text, a.html);
    const ownKeys = new Set<string>([...own, `url:${a.canonicalUrl}`]);
    const refKeys = [...refs.identifiers, ...refs.urls.map((u) => `url:${canonicalizeUrl(u)}`)].filter(
      (k) => !ownKeys.has(k),
    );
    if (refKeys.length) {
      const covered = [
        ...(await s.byIdentifiers(refKeys.filter(isIdentifier))),
        ...(await s.byCanonicalUrls(refKeys.filter((k) => k.startsWith('url:')).map((k) => k.slice(4)))),
      ].filter((m) => m.workId !== workId);
      if (covered.length) summary.coverage++;
      for (const m of covered) touched.add(m.workId);
    }
    return refKeys;
  }

  /**
   * The article's work joined with its neighbours' works, unless an admin kept some of their
   * articles apart; works an admin merged with it are joined too. Answers the article's work id.
   */
  private async merge(
    s: WorkLinkStore,
    a: LinkArticle,
    neighbours: WorkMember[],
    summary: LinkSummary,
  ): Promise<string> {
    const group = new Map((await s.members([a.workId])).map((m) => [m.id, m]));
    if (!group.has(a.id))
      group.set(a.id, { id: a.id, workId: a.workId, doi: a.doi, arxivId: a.arxivId, url: a.url, at: a.at });
    const decisions = await s.decisions([...group.keys(), ...neighbours.map((n) => n.id)]);
    const apart = new Set(decisions.filter((d) => d.kind === 'apart').map((d) => pairKey(d.a, d.b)));
    const together = decisions.filter((d: WorkDecision) => d.kind === 'together');

    const pending = [...new Set(neighbours.map((n) => n.workId))].filter((w) => w !== a.workId);
    const partnerIds = together.flatMap((d) => (group.has(d.a) ? [d.b] : group.has(d.b) ? [d.a] : []));
    for (const m of partnerIds.length ? await s.byIds(partnerIds) : []) pending.push(m.workId);

    const joined: string[] = [];
    for (const w of [...new Set(pending)]) {
      if (w === a.workId || joined.includes(w)) continue;
      const members = await s.members([w]);
      if (group.size + members.length > MAX_WORK_SIZE) {
        this.logger.warn({ event: 'works.too_large', article_id: a.id, work_id: w });
        continue;
      }
      const forced = members.some((m) => partnerIds.includes(m.id));
      const blocked = members.some((m) => [...group.keys()].some((g) => apart.has(pairKey(g, m.id))));
      if (blocked && !forced) continue;
      for (const m of members) group.set(m.id, m);
      joined.push(w);
    }

    const members = [...group.values()];
    const head = bestVersion(members.map((m) => ({ id: m.id, role: versionRole(m), at: m.at })))!;
    if (!joined.length) return a.workId;
    summary.merged++;
    const all = [a.workId, ...joined];
    // keep a stored work's id (the one of most members); a work of one article has its article's id
    const stored = all.filter((w) => !group.has(w));
    const count = (w: string) => members.filter((m) => m.workId === w).length;
    const keep = stored.sort((x, y) => count(y) - count(x))[0] ?? null;
    const [id] = await s.assign([
      {
        workId: keep,
        memberIds: members.map((m) => m.id),
        headId: head.id,
        retiredIds: stored.filter((w) => w !== keep),
      },
    ]);
    return id!;
  }
}
