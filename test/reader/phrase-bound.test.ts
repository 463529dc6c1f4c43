import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import {
  cappedCountSql,
  DrizzleArticleRepository,
} from '../../src/infrastructure/db/repositories/article.repository.js';
import type { Db } from '../../src/infrastructure/db/client.js';

/**
 * Issue 24: a phrase needs word positions, which the GIN index cannot check, so every article
 * holding the phrase's words had its whole tsvector read. With a phrase bound (PGlite), positions
 * are checked in a capped number of the index's candidates; the answers of ordinary phrase
 * queries stay those of the unbounded search.
 */
describe.each(dbKinds())('phrase search bounded on %s', (kind) => {
  let t: TestApp;
  let db: Db;

  const list = (repo: DrizzleArticleRepository, q: string) =>
    repo.list({
      filter: { q },
      sort: { kind: 'relevance' },
      order: 'desc',
      limit: 100,
      offset: 0,
      viewerId: null,
    });
  const titles = async (repo: DrizzleArticleRepository, q: string) => {
    const page = await list(repo, q);
    expect(page.total).toBe(page.items.length);
    return page.items.map((i) => i.title).sort();
  };

  /** the plan of a statement run as the repository runs a search, as JSON */
  async function plan(statement: SQL) {
    return db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = (await tx.execute(sql`explain (analyze, format json) ${statement}`)) as unknown as {
        rows: Record<string, unknown>[];
      };
      const raw = Object.values(res.rows[0]!)[0];
      return (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan: PlanNode }];
    });
  }
  interface PlanNode {
    'Node Type': string;
    'Actual Rows': number;
    'Actual Loops': number;
    Filter?: string;
    'Recheck Cond'?: string;
    'Rows Removed by Filter'?: number;
    'Rows Removed by Index Recheck'?: number;
    Plans?: PlanNode[];
  }
  const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
  /** how many tsvectors the statement tested for positions: rows seen by a node checking `<->` */
  const positionChecks = (root: PlanNode) =>
    nodes(root).reduce((sum, n) => {
      if (n['Recheck Cond']?.includes('<->'))
        sum += n['Actual Rows'] + (n['Rows Removed by Index Recheck'] ?? 0);
      if (n.Filter?.includes('<->'))
        sum += (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0)) * n['Actual Loops'];
      return sum;
    }, 0);

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    db = t.container.database.db;
    const topicId = (await makeTopic(db)).id;
    const add = (title: string, summary: string) => makeArticle(db, { topicId, title, summary });
    await add('Protein folding in cells', 'How chains fold.');
    await add('Folding the protein', 'Not the phrase: the words in the other order.');
    await add('Protein-folding machines', 'Chaperones at work.');
    await add('Membrane protein study', 'Lipids, then folding much later.');
    await add('蛋白質結構預測', '深度學習');
    await add('結構與蛋白質', '順序不同');
    // sixty articles that hold both words of "quantum dots" but never side by side
    for (let i = 0; i < 60; i++) await add(`Dots report ${i}`, `quantum effects and many dots, number ${i}`);
    await add('Quantum dots display', 'Brighter screens.');
  });
  afterAll(() => t?.close());

  it('finds what the unbounded search finds for ordinary phrase queries', async () => {
    // answers are compared here, not timed: a busy machine must not trip the 3 s search timeout
    const searchTimeoutMs = 60_000;
    const bounded = new DrizzleArticleRepository(db, Date.now, { phraseCandidates: 200, searchTimeoutMs });
    const unbounded = new DrizzleArticleRepository(db, Date.now, { phraseCandidates: null, searchTimeoutMs });
    const cases: [string, string[]][] = [
      ['"protein folding"', ['Protein folding in cells', 'Protein-folding machines']],
      ['"protein folding" -chaperones', ['Protein folding in cells']],
      [
        '"protein folding" OR lipids',
        ['Membrane protein study', 'Protein folding in cells', 'Protein-folding machines'],
      ],
      ['-"protein folding" protein', ['Folding the protein', 'Membrane protein study']],
      ['protein-folding machines', ['Protein-folding machines']],
      ['蛋白質', ['結構與蛋白質', '蛋白質結構預測']],
      ['"quantum dots"', ['Quantum dots display']],
    ];
    for (const [q, expected] of cases) {
      expect(await titles(bounded, q), q).toEqual(expected);
      expect(await titles(unbounded, q), q).toEqual(expected);
    }
    // everything but a phrase: no index term is left, the candidates are any articles
    const all = (await db.execute(sql`select count(*)::int as n from articles`)) as unknown as {
      rows: { n: number }[];
    };
    expect(await titles(bounded, '-"protein folding"')).toHaveLength(all.rows[0]!.n - 2);
  });

  it('the service answers phrase queries the same way', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/articles?q=${encodeURIComponent('"protein folding"')}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ items: { title: string }[]; total: number }>();
    expect(body.items.map((i) => i.title).sort()).toEqual([
      'Protein folding in cells',
      'Protein-folding machines',
    ]);
    expect(body.total).toBe(2);
  });

  it('checks positions in at most the bound of candidates, where unbounded it reads every holder of the words', async () => {
    const q = '"quantum dots"';
    const unbounded = positionChecks((await plan(cappedCountSql({ q })))[0].Plan);
    expect(unbounded).toBeGreaterThanOrEqual(61);
    for (const bound of [5, 20]) {
      const bounded = positionChecks((await plan(cappedCountSql({ q }, bound)))[0].Plan);
      expect(bounded).toBeGreaterThan(0);
      expect(bounded).toBeLessThanOrEqual(bound);
    }
    // the same for the page of a relevance search (its ranking reads only what matched)
    const small = new DrizzleArticleRepository(db, Date.now, { phraseCandidates: 5 });
    const page = await list(small, q);
    expect(page.total).toBeLessThanOrEqual(1);
    expect(page.total).toBe(page.items.length);
  });
});
