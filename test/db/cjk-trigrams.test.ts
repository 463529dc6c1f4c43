import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../src/infrastructure/db/client.js';
import { createTestDatabase, dbKinds } from '../helpers/db.js';

/**
 * Migration 0015: the trigram index of the article search covers `article_search_cjk(...)`, the
 * CJK runs of the search text, and a query's run of 3+ CJK characters is looked up there before
 * the whole query is checked on `article_search_text(...)` as before
 * (docs/decisions/0169-trigrams-of-cjk-runs-only.md). That answers what the check alone answered
 * only if every run the query side calls CJK (article-search.sql.ts: Han, Hiragana, Katakana,
 * Hangul) survives in the index's text: held here for every such character, on real articles and
 * their zh-TW translations (the ask evaluation set, bench/fixtures/ask-eval/README.md), and the
 * planner is shown to use the index.
 */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const IS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

interface EvalArticle {
  title: string;
  summary?: string;
  content?: string;
  translation_zh_tw?: { title: string; summary: string };
}

const evalArticles = () =>
  JSON.parse(
    readFileSync(new URL('../../bench/fixtures/ask-eval/articles.json', import.meta.url), 'utf8'),
  ) as EvalArticle[];

/** every code point the query side takes for part of a CJK run, in strings of at most 2,000 */
function cjkCharacters(): string[] {
  const chunks: string[] = [];
  let chunk = '';
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const ch = String.fromCodePoint(c);
    if (!IS_CJK.test(ch)) continue;
    chunk += ch;
    if (chunk.length >= 2000) {
      chunks.push(chunk);
      chunk = '';
    }
  }
  if (chunk) chunks.push(chunk);
  return chunks;
}

describe.each(dbKinds())('the trigram index of CJK runs, migration 0015 (%s)', (kind) => {
  let database: Database;
  const exec = (q: ReturnType<typeof sql>) => database.db.execute(q);
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.close();
  });

  it('keeps every character a CJK run of a query can hold, and only spaces of the rest', async () => {
    const chunks = cjkCharacters();
    // Han alone is ~98,000 code points: the class was read, not a handful of them
    expect(chunks.join('').length).toBeGreaterThan(90_000);
    const rows = rowsOf<{ i: number; out: string }>(
      await exec(sql`
        select i::int as i, article_search_cjk(t, null, '{}'::jsonb, null) as out
        from jsonb_array_elements_text(${JSON.stringify(chunks)}::jsonb) with ordinality as x(t, i)`),
    );
    expect(rows).toHaveLength(chunks.length);
    // title, summary, the translation's two fields and the content joined by spaces: the chunk
    // comes back whole, between the separators
    for (const r of rows) expect(r.out.trim()).toBe(chunks[r.i - 1]);
    const [mixed] = rowsOf<{ out: string }>(
      await exec(sql`select article_search_cjk(
        'GPT 模型訓練 for ひらがな and 한국어', 'Résumé: naïve — Ωμέγα, Кириллица', ${JSON.stringify({
          'zh-TW': { title: '大型語言模型', summary: '訓練資料。' },
        })}::jsonb, ${'x'.repeat(2000) + '不在這裡'}) as out`),
    );
    // English, Latin-1, Greek, Cyrillic and punctuation become spaces; the fullwidth full stop (above
    // U+2E80, as are other symbols) stays;
    // the content counts only up to its 1,000th character
    expect(mixed!.out.split(/\s+/).filter(Boolean)).toEqual([
      '模型訓練',
      'ひらがな',
      '한국어',
      '大型語言模型',
      '訓練資料。',
    ]);
  });

  it('finds in the index text every run the whole text holds, on real articles and translations', async () => {
    const articles = evalArticles();
    expect(articles.filter((a) => a.translation_zh_tw).length).toBeGreaterThanOrEqual(10);
    const cases: { text: [string, string, string, string]; run: string }[] = [];
    for (const a of articles) {
      const zh = a.translation_zh_tw;
      if (!zh) continue;
      const text: [string, string, string, string] = [
        a.title,
        a.summary ?? '',
        JSON.stringify({ 'zh-TW': zh }),
        a.content ?? '',
      ];
      // runs of 3-6 characters cut from the translation, at several places
      for (const run of `${zh.title} ${zh.summary}`.match(CJK_RUN) ?? []) {
        const chars = [...run];
        for (let at = 0; at + 3 <= chars.length; at += 5)
          cases.push({ text, run: chars.slice(at, at + 3 + (at % 4)).join('') });
      }
    }
    expect(cases.length).toBeGreaterThan(50);
    const rows = rowsOf<{ whole: boolean; cjk: boolean }>(
      await exec(sql`
        select article_search_text(c->>0, c->>1, (c->>2)::jsonb, c->>3) ilike '%' || (c->>4) || '%' as whole,
               article_search_cjk(c->>0, c->>1, (c->>2)::jsonb, c->>3) ilike '%' || (c->>4) || '%' as cjk
        from jsonb_array_elements(${JSON.stringify(cases.map((c) => [...c.text, c.run]))}::jsonb) as x(c)`),
    );
    expect(rows).toHaveLength(cases.length);
    expect(rows.every((r) => r.whole)).toBe(true);
    expect(rows.every((r) => r.cjk)).toBe(true);
  });

  it('is the index the planner takes for a run of three characters', async () => {
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rowsOf<Record<string, string>>(
        await tx.execute(sql`explain select a.id from articles a
          where article_search_cjk(a.title, a.summary, a.translations, a.content) ilike '%模型訓練%'
            and article_search_text(a.title, a.summary, a.translations, a.content) ilike '%GPT 模型訓練%'`),
      )
        .map((r) => Object.values(r)[0])
        .join('\n');
    });
    expect(plan).toContain('articles_search_cjk_trgm_idx');
    const indexes = rowsOf<{ name: string }>(
      await exec(
        sql`select indexname as name from pg_indexes where tablename = 'articles' and indexname like '%trgm%'`,
      ),
    );
    expect(indexes.map((i) => i.name)).toEqual(['articles_search_cjk_trgm_idx']);
  });
});
