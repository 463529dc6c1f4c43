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
import type { CopyCandidate, LinkArticle, WorkDecision, WorkLinkStore, WorkMember } from './works.ports.js';

/**
 * Articles linked in one locked batch at most (and the `work.link` jobs taken at once); a longer
 * list is worked off batch by batch. A batch costs a fixed number of statements (about a dozen), so
 * a bigger one costs less per article; it holds the linker's lock for longer (250 articles: tens of
 * milliseconds). Was 100 until session 34 (`pipeline.work_linking`, docs/performance.md).
 */
export const LINK_BATCH = 250;
/**
 * Articles whose texts are held at once: a batch reads its articles' texts (up to 200,000
 * characters each, and up to 500,000 of feed HTML) this many at a time and keeps only what it
 * needs of them (fingerprint, bands, references), so a batch's memory does not grow with its size.
 */
export const TEXT_READ = 50;
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
        const articles: Prepared[] = [];
        for (let i = 0; i < batch.length; i += TEXT_READ)
          for (const a of await s.articles(batch.slice(i, i + TEXT_READ))) articles.push(prepare(a));
        // the batch's fingerprints first, in one set of statements: copies within the batch find
        // each other as copies stored earlier do
        await s.saveFingerprints(
          articles.map(({ a, fp, bands }) => ({ articleId: a.id, at: a.at, fp, bands })),
        );
        const view = await BatchView.read(s, articles);
        const references: { articleId: string; refKeys: string[] }[] = [];
        for (const [i, { a, fp }] of articles.entries()) {
          summary.articles++;
          references.push({
            articleId: a.id,
            refKeys: await this.linkOne(view, i, a, fp, touched, summary),
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
    view: BatchView,
    i: number,
    a: LinkArticle,
    fp: TextFingerprint | null,
    touched: Set<string>,
    summary: LinkSummary,
  ): Promise<string[]> {
    const { own, versions, copies, refKeys, covered } = view.of(i);
    // versions: articles carrying one of its identifiers or one an API linked to them
    const neighbours: WorkMember[] = [...versions];
    // copies: only between articles without paper identifiers (those decide for papers)
    if (fp && !own.length)
      for (const c of copies) if (!ownIdentifiers(c).length && isCopy(fp, c.fingerprint)) neighbours.push(c);

    const workId = await this.merge(view, a, neighbours, summary);
    touched.add(workId);

    // coverage: what its text links to or names, outside its own work
    const outside = covered.map((m) => view.workOf(m)).filter((w) => w !== workId);
    if (outside.length) summary.coverage++;
    for (const w of outside) touched.add(w);
    return refKeys;
  }

  /**
   * The article's work joined with its neighbours' works, unless an admin kept some of their
   * articles apart; works an admin merged with it are joined too. Answers the article's work id.
   */
  private async merge(
    view: BatchView,
    a: LinkArticle,
    neighbours: WorkMember[],
    summary: LinkSummary,
  ): Promise<string> {
    const own = view.workOf(a);
    const group = new Map((await view.members(own)).map((m) => [m.id, m]));
    if (!group.has(a.id))
      group.set(a.id, { id: a.id, workId: own, doi: a.doi, arxivId: a.arxivId, url: a.url, at: a.at });
    const decisions = await view.decisions([...group.keys(), ...neighbours.map((n) => n.id)]);
    const apart = new Set(decisions.filter((d) => d.kind === 'apart').map((d) => pairKey(d.a, d.b)));
    const together = decisions.filter((d: WorkDecision) => d.kind === 'together');

    const pending = [...new Set(neighbours.map((n) => view.workOf(n)))].filter((w) => w !== own);
    const partnerIds = together.flatMap((d) => (group.has(d.a) ? [d.b] : group.has(d.b) ? [d.a] : []));
    for (const m of partnerIds.length ? await view.store.byIds(partnerIds) : []) pending.push(view.workOf(m));

    const joined: string[] = [];
    for (const w of [...new Set(pending)]) {
      if (w === own || joined.includes(w)) continue;
      const members = await view.members(w);
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
    if (!joined.length) return own;
    summary.merged++;
    const all = [own, ...joined];
    // keep a stored work's id (the one of most members); a work of one article has its article's id
    const stored = all.filter((w) => !group.has(w));
    const count = (w: string) => members.filter((m) => m.workId === w).length;
    const keep = stored.sort((x, y) => count(y) - count(x))[0] ?? null;
    const [id] = await view.store.assign([
      {
        workId: keep,
        memberIds: members.map((m) => m.id),
        headId: head.id,
        retiredIds: stored.filter((w) => w !== keep),
      },
    ]);
    view.moved(all, id!, members);
    return id!;
  }
}

/** an article of a batch with what its text gives, the text itself no longer held */
interface Prepared {
  /** the article, without its text and HTML */
  a: LinkArticle;
  fp: TextFingerprint | null;
  bands: number[];
  /** its own paper identifiers */
  own: IdentifierKey[];
  /** links its feed entry names (an arXiv entry's DOI) */
  fromFeed: ReturnType<typeof arxivEntryLinks>;
  /** what its text links to or names, its own keys left out */
  refKeys: string[];
}

function prepare(a: LinkArticle): Prepared {
  const fp = a.text ? fingerprint(a.text) : null;
  const ids = resolveIdentifiers(a);
  const own = ownIdentifiers(ids);
  const refs = references(a.text, a.html);
  const ownKeys = new Set<string>([...own, `url:${a.canonicalUrl}`]);
  const refKeys = [...refs.identifiers, ...refs.urls.map((u) => `url:${canonicalizeUrl(u)}`)].filter(
    (k) => !ownKeys.has(k),
  );
  return {
    a: { ...a, text: null, html: null },
    fp,
    bands: fp ? bandKeys(fp.signature) : [],
    own,
    fromFeed: arxivEntryLinks(ids.arxivId, a.metadata),
    refKeys,
  };
}

/**
 * What a batch reads of the store before linking its articles one by one, in one statement for
 * each kind of read instead of one per article: identifier links, versions, copy candidates,
 * referenced works, the works' members and the admin's decisions. Kept true while the batch
 * merges: an article a merge moved answers its new work, and a work a merge changed is read
 * again, so each article sees what the articles before it wrote, as one article at a time would.
 */
class BatchView {
  /** articles this batch's merges moved, and their work now */
  private readonly workNow = new Map<string, string>();
  /** works this batch's merges changed: their members are read again */
  private readonly changed = new Set<string>();

  private constructor(
    readonly store: WorkLinkStore,
    private readonly items: {
      own: IdentifierKey[];
      versions: WorkMember[];
      copies: CopyCandidate[];
      refKeys: string[];
      covered: WorkMember[];
    }[],
    private readonly membersOf: Map<string, WorkMember[]>,
    private readonly decisionList: WorkDecision[],
    /** the articles whose decisions `decisionList` holds */
    private readonly decided: Set<string>,
  ) {}

  static async read(s: WorkLinkStore, parsed: readonly Prepared[]): Promise<BatchView> {
    const fromFeed = parsed.flatMap((p) => p.fromFeed);
    if (fromFeed.length)
      await s.saveLinks([...new Map(fromFeed.map((l) => [`${l.from} ${l.to}`, l])).values()]);
    const allOwn = [...new Set(parsed.flatMap((p) => p.own))];
    const links = allOwn.length ? await s.linksOf(allOwn) : [];
    const versionKeys = parsed.map((p) => {
      const keys = new Set<IdentifierKey>(p.own);
      for (const l of links) if (keys.has(l.from) || keys.has(l.to)) keys.add(l.from).add(l.to);
      return p.own.length ? [...keys] : [];
    });
    const versions = await s.byIdentifiersEach(versionKeys);
    const copies = await s.copyCandidatesEach(
      parsed
        .filter((p) => p.fp && !p.own.length)
        .map((p) => ({
          articleId: p.a.id,
          bands: p.bands,
          from: new Date(p.a.at.getTime() - COPY_WINDOW_MS),
          to: new Date(p.a.at.getTime() + COPY_WINDOW_MS),
        })),
      MAX_COPY_CANDIDATES,
    );
    const byId = await s.byIdentifiersEach(parsed.map((p) => p.refKeys.filter(isIdentifier)));
    const byUrl = await s.byCanonicalUrlsEach(
      parsed.map((p) => p.refKeys.filter((k) => k.startsWith('url:')).map((k) => k.slice(4))),
    );
    const items = parsed.map((p, i) => ({
      own: p.own,
      versions: versions[i]!,
      copies: copies.get(p.a.id) ?? [],
      refKeys: p.refKeys,
      covered: [...byId[i]!, ...byUrl[i]!],
    }));
    // the members of every work a merge may read: the articles' own and their neighbours'
    const works = new Set<string>(parsed.map((p) => p.a.workId));
    for (const item of items) for (const m of [...item.versions, ...item.copies]) works.add(m.workId);
    const membersOf = new Map<string, WorkMember[]>([...works].map((w) => [w, []]));
    for (const m of works.size ? await s.members([...works]) : []) membersOf.get(m.workId)?.push(m);
    const ids = new Set<string>(parsed.map((p) => p.a.id));
    for (const item of items) for (const m of [...item.versions, ...item.copies]) ids.add(m.id);
    for (const ms of membersOf.values()) for (const m of ms) ids.add(m.id);
    const decisions = await s.decisions([...ids]);
    return new BatchView(s, items, membersOf, decisions, ids);
  }

  of(i: number) {
    return this.items[i]!;
  }

  /** the member's work now: a merge of this batch may have moved it */
  workOf(m: { id: string; workId: string }): string {
    return this.workNow.get(m.id) ?? m.workId;
  }

  /** the members of a work, as they are now */
  async members(workId: string): Promise<WorkMember[]> {
    const known = this.membersOf.get(workId);
    if (known && !this.changed.has(workId)) return known;
    return this.store.members([workId]);
  }

  /** the admin's decisions touching any of these articles */
  async decisions(ids: readonly string[]): Promise<WorkDecision[]> {
    const missing = ids.filter((id) => !this.decided.has(id));
    if (missing.length) await this.decisionsOf(missing);
    const wanted = new Set(ids);
    return this.decisionList.filter((d) => wanted.has(d.a) || wanted.has(d.b));
  }

  private async decisionsOf(ids: readonly string[]): Promise<void> {
    const known = new Set(this.decisionList.map((d) => `${d.kind} ${d.a} ${d.b}`));
    for (const d of await this.store.decisions(ids))
      if (!known.has(`${d.kind} ${d.a} ${d.b}`)) this.decisionList.push(d);
    for (const id of ids) this.decided.add(id);
  }

  /** a merge wrote `members` as the work `id`, joining the works `from` */
  moved(from: readonly string[], id: string, members: readonly WorkMember[]): void {
    for (const w of [...from, id]) this.changed.add(w);
    for (const m of members) this.workNow.set(m.id, id);
  }
}
