import { invalid, notFound } from '../../domain/errors.js';
import { bestVersion, versionRole } from '../../domain/works.js';
import type { WorkDecision, WorkLinkStore, WorkReadStore, WorkView, WorkVersionView } from './works.ports.js';

/** Coverage articles listed with a work at most (the count is exact). */
export const MAX_COVERAGE_LISTED = 100;
/** Works merged by hand at once at most. */
export const MAX_MERGE = 10;

/**
 * Reading a work (GET /works/{id}) and an admin's split and merge, remembered as decisions the
 * work linker keeps on every later run.
 */
export class WorksService {
  constructor(
    private readonly read: WorkReadStore,
    private readonly links: WorkLinkStore,
  ) {}

  /** A work by its id, or the work of an article by the article's id. */
  async get(id: string): Promise<WorkView> {
    const found = await this.read.work(id, MAX_COVERAGE_LISTED);
    if (!found) throw notFound('work', 'work_not_found');
    const members = found.members.map((m) => ({ ...m, role: versionRole(m) }));
    const head = bestVersion(members.map((m) => ({ ...m, id: m.articleId })))!;
    const published = bestVersion(
      members.filter((m) => m.role === 'published').map((m) => ({ ...m, id: m.articleId })),
    );
    const preprint = bestVersion(
      members.filter((m) => m.role === 'preprint').map((m) => ({ ...m, id: m.articleId })),
    );
    const order = { published: 0, preprint: 1, copy: 2, coverage: 3 } as const;
    const versions: WorkVersionView[] = [
      ...members
        .sort((a, b) => order[a.role] - order[b.role] || a.at.getTime() - b.at.getTime())
        .map(({ at: _at, ...m }) => m),
      ...found.coverage.map((c) => ({ ...c, role: 'coverage' as const })),
    ];
    return {
      id: found.id,
      title: head.title,
      doi: published?.doi ?? head.doi,
      arxivId: preprint?.arxivId ?? members.find((m) => m.arxivId)?.arxivId ?? null,
      // the published version's count, else the preprint's: never a sum of versions
      citationCount: published?.citationCount ?? preprint?.citationCount ?? head.citationCount,
      coverageCount: found.coverageCount,
      versions,
    };
  }

  /** Moves `articleIds` out of work `workId` into a work of their own; remembered. */
  async split(
    workId: string,
    articleIds: readonly string[],
    by: string | null,
  ): Promise<{ work_ids: string[] }> {
    return this.links.locked(async (s) => {
      const members = await s.members([workId]);
      if (!members.length) throw notFound('work', 'work_not_found');
      const moving = new Set(articleIds);
      const stay = members.filter((m) => !moving.has(m.id));
      const go = members.filter((m) => moving.has(m.id));
      if (go.length !== moving.size || !stay.length)
        throw invalid('split off some, not all, of the work’s own articles', 'work_split_invalid', [
          { path: '/article_ids', message: 'each must be a member of the work, and not all of them' },
        ]);
      const decisions: WorkDecision[] = [];
      for (const g of go) for (const m of stay) decisions.push({ kind: 'apart', a: g.id, b: m.id });
      for (const g of go)
        for (const h of go) if (g.id < h.id) decisions.push({ kind: 'together', a: g.id, b: h.id });
      await s.saveDecisions(decisions, by);
      const headOf = (ms: typeof members) =>
        bestVersion(ms.map((m) => ({ id: m.id, role: versionRole(m), at: m.at })))!.id;
      const stored = members[0]!.workId !== members[0]!.id || members.length > 1 ? workId : null;
      const ids = await s.assign([
        { workId: stored, memberIds: stay.map((m) => m.id), headId: headOf(stay), retiredIds: [] },
        { workId: null, memberIds: go.map((m) => m.id), headId: headOf(go), retiredIds: [] },
      ]);
      await s.refreshCoverage(ids);
      return { work_ids: ids };
    });
  }

  /** Joins the works into the first one; remembered. */
  async merge(workIds: readonly string[], by: string | null): Promise<{ work_id: string }> {
    const unique = [...new Set(workIds)];
    if (unique.length < 2 || unique.length > MAX_MERGE)
      throw invalid(`merge 2 to ${MAX_MERGE} different works`, 'work_merge_invalid', [
        { path: '/work_ids', message: `2 to ${MAX_MERGE} different work ids` },
      ]);
    return this.links.locked(async (s) => {
      const groups = await Promise.all(unique.map((w) => s.members([w])));
      if (groups.some((g) => !g.length)) throw notFound('work', 'work_not_found');
      const all = groups.flat();
      const anchor = groups[0]![0]!;
      const decisions: WorkDecision[] = groups
        .slice(1)
        .flat()
        .map((m) => ({
          kind: 'together' as const,
          a: anchor.id < m.id ? anchor.id : m.id,
          b: anchor.id < m.id ? m.id : anchor.id,
        }));
      await s.saveDecisions(decisions, by);
      const stored = unique.filter((w) => !all.some((m) => m.id === w));
      const keep = stored.includes(unique[0]!) ? unique[0]! : (stored[0] ?? null);
      const head = bestVersion(all.map((m) => ({ id: m.id, role: versionRole(m), at: m.at })))!;
      const [id] = await s.assign([
        {
          workId: keep,
          memberIds: all.map((m) => m.id),
          headId: head.id,
          retiredIds: stored.filter((w) => w !== keep),
        },
      ]);
      await s.refreshCoverage([id!]);
      return { work_id: id! };
    });
  }
}
