import { sql } from 'drizzle-orm';
import type { Database } from '../../src/composition/bench-entry.js';

/**
 * Searchable text for the reader benches: titles, summaries and a content start drawn from a
 * 2,000-word pseudo-English vocabulary (each word in ~1-3% of the articles, like a real topic word),
 * and one article in ten with a Chinese title from 120 two-character words.
 */
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'to',
  'vi',
  'pe',
  'da',
  'fo',
  'gu',
  'hi',
  'ja',
  'be',
  'co',
];
export const VOCABULARY = Array.from({ length: 2000 }, (_, i) => {
  const a = SYLLABLES[i % 16]!;
  const b = SYLLABLES[Math.floor(i / 16) % 16]!;
  const c = SYLLABLES[Math.floor(i / 256) % 16]!;
  return `${a}${b}${c}n`;
});
export const CJK_WORDS =
  '蛋白結構預測方法模型學習網路影像語言資料系統分析計算量子材料能源氣候醫療基因細胞神經演算優化訊號感測晶片電池太陽風力海洋地震病毒疫苗藥物診斷機器視覺語音翻譯推薦搜尋安全隱私加密區塊金融經濟政策教育城市交通衛星火箭天文星系黑洞粒子光學雷射半導體化學催化聚合奈米薄膜磁性超導流體湍流燃燒結晶晶體'.match(
    /../gu,
  )!;

/** n words of the vocabulary `v.w`, picked by a multiplicative hash of the row number */
const words = (n: number, seed: string) =>
  sql.raw(
    Array.from(
      { length: n },
      (_, k) => `v.w[1 + ((${seed})::bigint * ${7919 + k * 104729} + ${k * 31}) % 2000]`,
    ).join(` || ' ' || `),
  );

/** Articles from..to of the given topics, in batches of 50k, then their citation counts. */
export async function generateReaderArticles(database: Database, from: number, to: number, topics: string[]) {
  const topicArray = `{${topics.join(',')}}`;
  const cjk = `{${CJK_WORDS.join(',')}}`;
  const vocabulary = `{${VOCABULARY.join(',')}}`;
  const nc = sql.raw(String(CJK_WORDS.length));
  const step = 50_000;
  for (let lo = from; lo <= to; lo += step) {
    const hi = Math.min(to, lo + step - 1);
    await database.db.execute(sql`
      insert into articles (topic_id, source, url, canonical_url, title, normalized_title, summary, content,
                            published_at, scraped_at)
      select (${topicArray}::uuid[])[1 + g % ${topics.length}], 'Source ' || (g % 40),
             'https://bench.example.test/r/' || g, 'https://bench.example.test/r/' || g,
             t.title, lower(t.title), ${words(12, 'g + 1')}, ${words(20, 'g + 2')},
             timestamptz '2020-01-01' + g * interval '1 minute', timestamptz '2020-01-01' + g * interval '1 minute'
      from generate_series(${lo}::int, ${hi}::int) g,
      (select ${vocabulary}::text[] as w, ${cjk}::text[] as c) v,
      lateral (select case when g % 10 = 0
               then v.c[1 + (g * 13) % ${nc}] || v.c[1 + (g * 17) % ${nc}] || v.c[1 + (g * 19) % ${nc}] || '的'
                    || v.c[1 + (g * 23) % ${nc}]
               else ${words(5, 'g')} end as title) t`);
  }
  // 60% carry a citation_count (the metric sort of the unread_only list)
  await database.db.execute(sql`
    insert into article_metrics (article_id, metric_key, value, source)
    select id, 'citation_count', abs(hashtext(id::text)) % 5000, 'bench' from articles
    where abs(hashtext(id::text)) % 10 < 6`);
  for (const table of ['articles', 'article_metrics'])
    await database.db.execute(sql.raw(`vacuum analyze ${table}`));
}
