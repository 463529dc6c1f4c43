import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, type Database } from '../../src/infrastructure/db/client.js';
import { createTestDatabase, dbKinds } from '../helpers/db.js';

/**
 * Migration 0014 rewrote `cjk_bigrams` (runs of CJK characters instead of a regular expression at
 * every position), and migration 0016 again (one expression of regular-expression replacements, no
 * subquery: inlined into the search vector's expression). The stored search vectors were made by
 * the functions before and are not rewritten, so the current one must give the same text for every
 * input: held here against the body migration 0004 created, on real texts (the ask evaluation set:
 * Guardian and arXiv articles with their hand-written zh-TW translations,
 * bench/fixtures/ask-eval/README.md), on the edges of the character class, and on random mixtures.
 */
const BEFORE = `CREATE OR REPLACE FUNCTION cjk_bigrams_before(t text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN t ~ '[\\u3400-\\u9fff\\uf900-\\ufaff]' THEN (
    SELECT coalesce(string_agg(b, ' ' ORDER BY i), '')
    FROM (SELECT i, substr(t, i, 2) AS b FROM generate_series(1, length(t) - 1) AS i) s
    WHERE b ~ '^[\\u3400-\\u9fff\\uf900-\\ufaff]{2}$') ELSE '' END
$$`;

interface EvalArticle {
  title: string;
  summary?: string;
  content?: string;
  translation_zh_tw?: { title: string; summary: string };
}

/** what the search vector's bigram part is computed from (schema/articles.ts, SEARCH_VECTOR_SQL) */
function vectorInputs(): string[] {
  const articles = JSON.parse(
    readFileSync(new URL('../../bench/fixtures/ask-eval/articles.json', import.meta.url), 'utf8'),
  ) as EvalArticle[];
  return articles.map((a) =>
    [
      a.title,
      (a.summary ?? '').slice(0, 1000),
      a.translation_zh_tw?.title ?? '',
      (a.translation_zh_tw?.summary ?? '').slice(0, 1000),
    ].join(' '),
  );
}

const EDGES = [
  '',
  'plain English only',
  '中',
  '中文',
  '中文中文',
  'a中b文c',
  '中文 英文abc 日本語',
  // kana and hangul are outside the class: they end a run
  'ひらがな漢字カタカナ漢字한국어漢字',
  // the class's ends and the characters just outside them
  '\u33ff\u3400\u3401 \u9ffe\u9fff\ua000 \uf8ff\uf900\uf901 \ufaff\ufb00',
  // a character outside the BMP between two ideographs (one character to PostgreSQL)
  '中\u{20000}文字',
  '「引號」，標點。全形１２３ＡＢＣ',
  '   中   文   ',
  'tab\t中\n文\r\n字',
];

/** a string of n characters drawn from ASCII, CJK, kana, punctuation and a supplementary character */
function randomText(n: number, next: () => number): string {
  const pools = [
    'abc XYZ 09.',
    '的一是不了人我在有他這中大來上國個到說們為子和你地出道也時年',
    'あいうアイウ',
    '，。「」！',
    '\u{20000}\u{2A6D6}',
    '\uf900\ufaff\u3400\u9fff',
  ];
  let s = '';
  for (let i = 0; i < n; i++) {
    const pool = [...pools[Math.floor(next() * pools.length)]!];
    s += pool[Math.floor(next() * pool.length)];
  }
  return s;
}

/** a small deterministic generator (mulberry32): the same strings on every run */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe.each(dbKinds())('cjk_bigrams after migrations 0014 and 0016 (%s)', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await database.db.execute(sql.raw(BEFORE));
  });
  afterAll(async () => {
    await database?.db.execute(sql`drop function if exists cjk_bigrams_before(text)`);
    await database?.close();
  });

  async function compare(inputs: (string | null)[]): Promise<void> {
    const rows = rowsOf<{ i: number; before: string; after: string }>(
      await database.db.execute(sql`
        select i::int as i, cjk_bigrams_before(t) as before, cjk_bigrams(t) as after
        from jsonb_array_elements_text(${JSON.stringify(inputs)}::jsonb) with ordinality as x(t, i)`),
    );
    expect(rows).toHaveLength(inputs.length);
    for (const r of rows)
      expect({ input: inputs[r.i - 1], out: r.after }).toEqual({ input: inputs[r.i - 1], out: r.before });
  }

  it('gives the same bigrams as before on real articles and their zh-TW translations', async () => {
    const inputs = vectorInputs();
    await compare(inputs);
    // the set holds translations, so bigrams were compared, not only empty strings
    const [one] = rowsOf<{ b: string }>(
      await database.db.execute(
        sql`select cjk_bigrams(${inputs.find((t) => /[\u4e00-\u9fff]/.test(t))!}) as b`,
      ),
    );
    expect(one!.b.split(' ').length).toBeGreaterThan(10);
  });

  it('gives the same bigrams as before at the edges of the character class, and for null', async () => {
    await compare([...EDGES, null]);
    const [row] = rowsOf<{ b: string }>(
      await database.db.execute(sql`select cjk_bigrams('中文字 漢字') as b`),
    );
    expect(row!.b).toBe('中文 文字 漢字');
  });

  it('gives the same bigrams as before on random mixtures', async () => {
    const next = mulberry32(20261128);
    await compare(Array.from({ length: 400 }, () => randomText(1 + Math.floor(next() * 60), next)));
  });

  it('gives the same bigrams as before where runs, lone characters and separators meet', async () => {
    // lone ideographs beside runs and beside each other, separators of every kind and length
    await compare([
      '中 文 字',
      '中文 字 漢字',
      '字中文',
      ' 中 ',
      '中\n文字\t漢\r\n字詞',
      'a中b文字c漢d',
      '中文　全形空白　漢字',
      '中。文字、漢。',
      '中文字詞語句段篇章'.repeat(40),
      `${'x '.repeat(500)}中文`,
    ]);
  });

  it('is inlined into the expression that calls it, not run as a query of its own', async () => {
    // a function with a subquery in its body is run as a query of its own for every row written
    // (the search vector is computed on every insert and every update of the text): ~250 µs an
    // article on PGlite. An inlined one is planned into the caller: the plan names its parts
    const plan = rowsOf<{ 'QUERY PLAN': string }>(
      await database.db.execute(
        sql`explain (verbose, costs off) select cjk_bigrams(t) from (values ('中文字'), ('漢字')) as v(t)`,
      ),
    )
      .map((r) => r['QUERY PLAN'])
      .join('\n');
    expect(plan).toContain('regexp_replace');
    expect(plan).not.toContain('cjk_bigrams');
  });
});
