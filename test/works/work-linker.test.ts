import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { createTestDatabase, dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic } from '../helpers/article-factories.js';
import type { Database } from '../../src/infrastructure/db/client.js';
import { rowsOf } from '../../src/infrastructure/db/client.js';
import { DrizzleWorkStore } from '../../src/infrastructure/db/repositories/work.repository.js';
import { TEXT_READ, WorkLinker } from '../../src/application/works/work-linker.service.js';
import type { WorkLinkStore } from '../../src/application/works/works.ports.js';
import { WorksService } from '../../src/application/works/works.service.js';
import { semanticScholarLinks } from '../../src/domain/works.js';

const WIRE = `The central bank raised its benchmark interest rate by a quarter of a percentage point on
Wednesday, the third increase this year, and signalled that further tightening was likely as inflation
remained well above its two per cent target. Policymakers voted seven to two in favour of the move,
with the two dissenting members arguing that the economy was already slowing and that higher borrowing
costs would hit households with variable rate mortgages hardest. The governor told reporters that the
labour market remained tight, wage growth was running at its fastest pace in two decades and that the
committee could not afford to let high inflation become entrenched. Markets had largely expected the
decision, and the currency rose slightly against the dollar after the announcement while government
bond yields edged higher. Economists said the statement left the door open to another increase at the
next meeting in six weeks, although several noted that the bank had dropped a reference to acting
forcefully, which some read as a hint that the end of the tightening cycle was approaching. Retailers
and builders warned that the higher rates would weigh on spending and construction in the months ahead.`;

/** the same wire story as another outlet runs it: a few words edited */
const EDITED = WIRE.replace('on\nWednesday', 'on Wednesday afternoon')
  .replace('Policymakers voted', 'Members of the committee voted')
  .replace('told reporters', 'said at a press conference');
/** and as a third trims it to its first paragraphs */
const TRIMMED = WIRE.slice(0, Math.floor(WIRE.length * 0.6));
/** a different story on the same event: the same facts, written apart */
const OTHER = `Borrowers face higher monthly payments after the central bank lifted rates again this week. The
quarter point rise, approved by a divided committee, takes the benchmark to its highest level in more
than a decade. Mortgage brokers reported a rush of customers trying to lock in fixed deals before
lenders reprice their products, and estate agents said viewings had already fallen in several regions.
Consumer groups urged lenders to pass on higher savings rates as quickly as they raise loan costs. The
finance ministry welcomed the decision as necessary to bring prices under control, while opposition
politicians said families were paying for the government's failure to plan. Analysts expect at least
one further move before the summer, depending on the next set of wage and price figures.`;

const silent = pino({ level: 'silent' });
const clock = { now: () => new Date() };

describe.each(dbKinds())('work linker (%s)', (kind) => {
  let database: Database;
  let linker: WorkLinker;
  let works: WorksService;
  let topicId: string;
  const workOf = async (id: string) =>
    rowsOf<{ w: string }>(
      await database.db.execute(sql`select coalesce(work_id, id) as w from articles where id = ${id}`),
    )[0]!.w;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const store = new DrizzleWorkStore(database.db);
    linker = new WorkLinker(store, clock, silent);
    works = new WorksService(store, store);
    topicId = (await makeTopic(database.db)).id;
  });
  afterAll(() => database.close());

  it('joins three syndicated copies with edited titles and trimmed bodies into one work, not the story written apart', async () => {
    const at = new Date('2026-03-04T12:00:00Z');
    const a = await makeArticle(database.db, {
      topicId,
      title: 'Central bank raises rates again',
      content: WIRE,
      publishedAt: at,
    });
    const b = await makeArticle(database.db, {
      topicId,
      title: 'Rates up a quarter point as bank signals more to come',
      content: EDITED,
      publishedAt: new Date(at.getTime() + 3 * 3600_000),
      source: 'Second Feed',
    });
    const c = await makeArticle(database.db, {
      topicId,
      title: 'Bank lifts rate for third time',
      content: TRIMMED,
      publishedAt: new Date(at.getTime() + 20 * 3600_000),
      source: 'Third Feed',
    });
    const d = await makeArticle(database.db, {
      topicId,
      title: 'Central bank raises rates again',
      content: OTHER,
      publishedAt: at,
      source: 'Fourth Feed',
    });
    const summary = await linker.linkArticles([a.id, b.id, c.id, d.id]);
    // one merge: the copies linked after the first see the work it made, not the works they had
    expect(summary.merged).toBe(1);
    const w = await workOf(a.id);
    expect(await workOf(b.id)).toBe(w);
    expect(await workOf(c.id)).toBe(w);
    // same title, same event, different text: its own work (titles never join)
    expect(await workOf(d.id)).toBe(d.id);
    const view = await works.get(w);
    expect(view.versions.map((v) => v.role)).toEqual(['copy', 'copy', 'copy']);
    // linking again changes nothing
    await linker.linkArticles([c.id, a.id]);
    expect(await workOf(c.id)).toBe(w);
  });

  it('leaves copies apart beyond the 72-hour window', async () => {
    const at = new Date('2026-05-01T12:00:00Z');
    const a = await makeArticle(database.db, {
      topicId,
      content: WIRE.replace('Wednesday', 'Friday'),
      publishedAt: at,
    });
    const b = await makeArticle(database.db, {
      topicId,
      content: WIRE.replace('Wednesday', 'Friday'),
      publishedAt: new Date(at.getTime() + 73 * 3600_000),
    });
    await linker.linkArticles([a.id, b.id]);
    expect(await workOf(a.id)).toBe(a.id);
    expect(await workOf(b.id)).toBe(b.id);
  });

  it('records a link one answer names twice (a batch that asked for a preprint and its published version)', async () => {
    const preprint = await makeArticle(database.db, { topicId, arxivId: '2404.04750' });
    const published = await makeArticle(database.db, { topicId, doi: '10.1145/3637866' });
    // the batch answer holds the same paper for ARXIV:2404.04750 and for DOI:10.1145/3637866
    const paper = { externalIds: { ArXiv: '2404.04750', DOI: '10.1145/3637866' } };
    const named = await linker.recordLinks([...semanticScholarLinks(paper), ...semanticScholarLinks(paper)]);
    expect(named.sort()).toEqual([preprint.id, published.id].sort());
    await linker.linkArticles(named);
    expect(await workOf(preprint.id)).toBe(await workOf(published.id));
  });

  it('links a preprint and its published version from a Semantic Scholar answer, and counts coverage', async () => {
    const preprint = await makeArticle(database.db, {
      topicId,
      title: 'Attention Is All You Need',
      arxivId: '1706.03762',
      url: 'https://arxiv.org/abs/1706.03762',
      publishedAt: new Date('2017-06-12T00:00:00Z'),
      source: 'arXiv cs.CL',
    });
    const published = await makeArticle(database.db, {
      topicId,
      title: 'Attention is All you Need',
      doi: '10.5555/3295222.3295349',
      publishedAt: new Date('2017-12-04T00:00:00Z'),
      source: 'NeurIPS',
    });
    const news = await makeArticle(database.db, {
      topicId,
      title: 'How transformers took over',
      content: 'The 2017 paper (https://arxiv.org/abs/1706.03762v5) introduced the transformer architecture.',
      source: 'Tech Weekly',
    });
    await linker.linkArticles([preprint.id, published.id, news.id]);
    expect(await workOf(preprint.id)).toBe(preprint.id);
    await linker.recordLinks(
      semanticScholarLinks({ externalIds: { DOI: '10.5555/3295222.3295349', ArXiv: '1706.03762' } }),
    );
    await linker.linkArticles([preprint.id]);
    const w = await workOf(preprint.id);
    expect(await workOf(published.id)).toBe(w);
    expect(w).not.toBe(preprint.id);
    const view = await works.get(preprint.id);
    expect(view.id).toBe(w);
    expect(view.versions.map((v) => [v.articleId, v.role])).toEqual([
      [published.id, 'published'],
      [preprint.id, 'preprint'],
      [news.id, 'coverage'],
    ]);
    expect(view.coverageCount).toBe(1);
    expect(view.doi).toBe('10.5555/3295222.3295349');
    expect(view.arxivId).toBe('1706.03762');
    const metric = rowsOf<{ article_id: string; value: number }>(
      await database.db.execute(
        sql`select article_id, value from article_metrics where metric_key = 'coverage_count' order by article_id`,
      ),
    );
    expect(metric.map((m) => [m.article_id, Number(m.value)]).sort()).toEqual(
      [
        [preprint.id, 1],
        [published.id, 1],
      ].sort(),
    );
    // the head of the collapsed list is the published version
    const [head] = rowsOf<{ head_article_id: string }>(
      await database.db.execute(sql`select head_article_id from works where id = ${w}`),
    );
    expect(head!.head_article_id).toBe(published.id);

    // an admin splits the preprint off: remembered on later runs
    await works.split(w, [preprint.id], null);
    expect(await workOf(preprint.id)).toBe(preprint.id);
    await linker.linkArticles([preprint.id, published.id]);
    expect(await workOf(preprint.id)).toBe(preprint.id);
    expect(await workOf(published.id)).toBe(published.id);
    // and merges them again by hand
    const merged = await works.merge([preprint.id, published.id], null);
    expect(await workOf(preprint.id)).toBe(merged.work_id);
    expect(await workOf(published.id)).toBe(merged.work_id);
    await linker.linkArticles([preprint.id, published.id]);
    expect(await workOf(published.id)).toBe(merged.work_id);
  });

  it('reads a batch in a fixed number of statements, however many articles it holds', async () => {
    // the store on a database handle that counts the statements of the linker's transaction
    let statements = 0;
    const counting = new Proxy(database.db, {
      get(target, prop, receiver) {
        if (prop !== 'transaction') return Reflect.get(target, prop, receiver);
        return (fn: (tx: unknown) => Promise<unknown>) =>
          target.transaction((tx) =>
            fn(
              new Proxy(tx, {
                get(t, p, r) {
                  const v = Reflect.get(t, p, r) as unknown;
                  if (p !== 'execute' || typeof v !== 'function') return v;
                  return (...args: unknown[]) => {
                    statements++;
                    return (v as (...a: unknown[]) => unknown).apply(t, args);
                  };
                },
              }),
            ),
          );
      },
    });
    const counted = new WorkLinker(new DrizzleWorkStore(counting), clock, silent);
    // texts of their own (no two are copies), each naming a DOI and a page
    const vocabulary = [...new Set(`${WIRE} ${OTHER}`.toLowerCase().match(/[a-z]+/g))];
    const story = (i: number, n: number) =>
      makeArticle(database.db, {
        topicId,
        content: `${Array.from({ length: 90 }, (_, k) => vocabulary[(k * (7 + i + 40 * n) + i) % vocabulary.length]).join(' ')}
          See https://doi.org/10.1000/batch.${n}.${i} and https://example.org/batch/${n}/${i}.`,
        publishedAt: new Date(Date.UTC(2025, n, 1, i)),
      });
    const countFor = async (n: number, size: number) => {
      const ids = [];
      for (let i = 0; i < size; i++) ids.push((await story(i, n)).id);
      statements = 0;
      await counted.linkArticles(ids);
      return statements;
    };
    const few = await countFor(1, 4);
    const many = await countFor(2, 40);
    expect(few).toBeGreaterThan(0);
    expect(many).toBe(few);
    // past TEXT_READ articles, only the reads of their texts are more: one more a TEXT_READ
    const more = await countFor(3, 2 * TEXT_READ + 10);
    expect(more).toBe(few + 2);
  });

  it('holds the texts of at most TEXT_READ articles at once, and links the whole batch', async () => {
    const reads: number[] = [];
    class ReadCounting extends DrizzleWorkStore {
      override locked<T>(fn: (store: WorkLinkStore) => Promise<T>): Promise<T> {
        return super.locked((s) =>
          fn(
            new Proxy(s, {
              get(t, p, r) {
                const v = Reflect.get(t, p, r) as unknown;
                if (p !== 'articles' || typeof v !== 'function') return v;
                return (ids: string[]) => {
                  reads.push(ids.length);
                  return (v as (ids: string[]) => unknown).call(t, ids);
                };
              },
            }),
          ),
        );
      }
    }
    const counted = new WorkLinker(new ReadCounting(database.db), clock, silent);
    const n = 2 * TEXT_READ + 7;
    const ids: string[] = [];
    for (let i = 0; i < n; i++)
      ids.push(
        (
          await makeArticle(database.db, {
            topicId,
            content: `${WIRE.slice(i % 40)} Bulletin ${i}.`,
            publishedAt: new Date(Date.UTC(2024, 5, 1, 0, i)),
          })
        ).id,
      );
    const summary = await counted.linkArticles(ids);
    expect(summary.articles).toBe(n);
    expect(Math.max(...reads)).toBeLessThanOrEqual(TEXT_READ);
    expect(reads.reduce((a, b) => a + b, 0)).toBe(n);
    // every article fingerprinted, and the copies (one wire story) in one work
    const fingerprinted = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from work_fingerprints where article_id = any(${`{${ids.join(',')}}`}::uuid[])`,
      ),
    )[0]!.n;
    expect(fingerprinted).toBe(n);
    expect(new Set(await Promise.all(ids.map(workOf))).size).toBe(1);
  });
});
