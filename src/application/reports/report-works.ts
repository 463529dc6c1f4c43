import { bestVersion, versionRole } from '../../domain/works.js';
import type { ReportArticle } from './reports.ports.js';

/**
 * A report's candidates are read this many times its article limit, so that after keeping one
 * version per work it still has enough to cite (a week rarely holds more than two versions of a work).
 */
export const WORK_CANDIDATES = 3;

/**
 * One article per work, at most `limit`, in the ranking's order: a work stands where its best-ranked
 * version stood, and is cited by its best version among the week's candidates (the published one,
 * else the preprint, else the earliest copy), never twice (docs/decisions/0144-reports-cite-a-work-once.md).
 */
export function oneVersionPerWork(ranked: readonly ReportArticle[], limit: number): ReportArticle[] {
  const works = new Map<string, ReportArticle[]>();
  for (const a of ranked) {
    const key = a.workId ?? a.id;
    const versions = works.get(key);
    if (versions) versions.push(a);
    else if (works.size < limit) works.set(key, [a]);
  }
  return [...works.values()].map((versions) => {
    if (versions.length === 1) return versions[0]!;
    const best = bestVersion(
      versions.map((v) => ({
        id: v.id,
        role: versionRole({ doi: v.doi ?? null, arxivId: v.arxivId ?? null, url: v.url }),
        // an undated version loses a tie of roles to a dated one
        at: v.publishedAt ?? new Date(8.64e15),
      })),
    )!;
    return versions.find((v) => v.id === best.id)!;
  });
}
