import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { dbKinds } from '../helpers/db.js';
import { makeArticle, makeTopic, type ArticleRow } from '../helpers/article-factories.js';

interface Item {
  id: string;
  title: string;
  snippet: { text: string; highlight: boolean }[] | null;
}
interface Page {
  items: Item[];
  total: number;
}

describe.each(dbKinds())('search (GET /articles?q=) on %s', (kind) => {
  let t: TestApp;
  let a: Record<string, ArticleRow>;
  const search = async (q: string, extra = '') => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/articles?q=${encodeURIComponent(q)}${extra}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };
  const titles = (p: Page) => p.items.map((i) => i.title).sort();

  beforeAll(async () => {
    t = await buildTestApp({ db: kind });
    const db = t.container.database.db;
    const topic = (await makeTopic(db)).id;
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
    a = {
      folding: await makeArticle(db, {
        topicId: topic,
        title: 'Protein folding with sparse attention',
        summary: 'Sparse attention makes folding models faster on long sequences.',
        scrapedAt: at(1),
      }),
      graphs: await makeArticle(db, {
        topicId: topic,
        title: 'Graph neural networks for molecules',
        summary: 'Message passing over molecular graphs; protein binding is a side note.',
        scrapedAt: at(2),
      }),
      weather: await makeArticle(db, {
        topicId: topic,
        title: 'Weather forecasting with transformers',
        summary: 'No protein here, only weather data and pressure maps.',
        scrapedAt: at(3),
      }),
      chinese: await makeArticle(db, {
        topicId: topic,
        title: '蛋白質結構預測的新方法',
        summary: '研究人員提出了一種新的預測方法。',
        language: 'zh',
        scrapedAt: at(4),
      }),
      translated: await makeArticle(db, {
        topicId: topic,
        title: 'Quarterly brewing notes',
        summary: 'A word that appears only here: zymurgy, the science of fermentation.',
        translations: { 'zh-TW': { title: '季度釀造筆記', summary: '釀造學是發酵的科學。' } },
        scrapedAt: at(5),
      }),
      gpt: await makeArticle(db, {
        topicId: topic,
        title: 'GPT 模型訓練的新紀錄',
        summary: 'A record.',
        scrapedAt: at(7),
      }),
      training: await makeArticle(db, {
        topicId: topic,
        title: '模型訓練的成本',
        summary: 'Costs only.',
        scrapedAt: at(8),
      }),
      content: await makeArticle(db, {
        topicId: topic,
        title: 'Leaves and light',
        summary: 'A short note.',
        content: 'Long text. Chlorophyll absorbs light; photosynthesis turns it into sugar.',
        scrapedAt: at(6),
      }),
    };
  });
  afterAll(() => t?.close());

  it('matches words in title, summary, content and the zh-TW translation', async () => {
    expect(titles(await search('protein'))).toEqual(
      [a.folding!, a.graphs!, a.weather!].map((r) => r.title).sort(),
    );
    expect(titles(await search('photosynthesis'))).toEqual([a.content!.title]);
    expect(titles(await search('釀造學'))).toEqual([a.translated!.title]);
    // English stemming: "models" finds "models", "fold" finds "folding"
    expect(titles(await search('fold'))).toEqual([a.folding!.title]);
  });

  it('understands the websearch syntax: quotes, OR and -exclusion', async () => {
    expect(titles(await search('"protein folding"'))).toEqual([a.folding!.title]);
    expect(titles(await search('protein -weather'))).toEqual([a.folding!.title, a.graphs!.title].sort());
    expect(titles(await search('molecules or forecasting'))).toEqual(
      [a.graphs!.title, a.weather!.title].sort(),
    );
    expect((await search('"sparse molecules"')).total).toBe(0);
  });

  it('finds CJK text and partial words by trigrams', async () => {
    expect(titles(await search('結構預測'))).toEqual([a.chinese!.title]);
    expect(titles(await search('預測方法'))).toEqual([a.chinese!.title]);
    expect(titles(await search('zymur'))).toEqual([a.translated!.title]);
    // two-character words (no trigram of their own) through the CJK bigrams of the tsvector
    expect(titles(await search('結構'))).toEqual([a.chinese!.title]);
    expect(titles(await search('釀造'))).toEqual([a.translated!.title]);
    expect(titles(await search('蛋白 方法'))).toEqual([a.chinese!.title]);
    expect((await search('結方')).total).toBe(0);
    expect((await search('不存在的詞')).total).toBe(0);
  });

  it('finds a CJK run through the index of CJK text, and checks the whole query on the whole text', async () => {
    expect(titles(await search('模型訓練'))).toEqual([a.gpt!.title, a.training!.title].sort());
    // the run alone is in both; with the word before it, only where both are
    expect(titles(await search('GPT 模型訓練'))).toEqual([a.gpt!.title]);
    expect(titles(await search('訓練的成本'))).toEqual([a.training!.title]);
    expect((await search('GPT 訓練的成本')).total).toBe(0);
  });

  it('orders by relevance by default: a title match before a summary match', async () => {
    const page = await search('protein');
    expect(page.items[0]!.id).toBe(a.folding!.id);
    expect(page.total).toBe(3);
    const explicit = await search('protein', '&sort=relevance');
    expect(explicit.items.map((i) => i.id)).toEqual(page.items.map((i) => i.id));
  });

  it('keeps every other sort with q, and refuses relevance without q', async () => {
    const byTitle = await search('protein', '&sort=title&order=asc');
    expect(byTitle.items.map((i) => i.title)).toEqual(
      [a.graphs!, a.folding!, a.weather!].map((r) => r.title),
    );
    const newest = await search('protein', '&sort=scraped_at&order=desc');
    expect(newest.items.map((i) => i.id)).toEqual([a.weather!.id, a.graphs!.id, a.folding!.id]);
    const refused = await t.app.inject({ method: 'GET', url: '/articles?sort=relevance' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('relevance_without_q');
  });

  it('answers a highlighted plain-text snippet of the best-matching field', async () => {
    const [hit] = (await search('zymurgy')).items;
    expect(hit!.snippet).not.toBeNull();
    const highlighted = hit!.snippet!.filter((s) => s.highlight).map((s) => s.text);
    expect(highlighted).toEqual(['zymurgy']);
    expect(hit!.snippet!.map((s) => s.text).join('')).toContain('appears only here: zymurgy, the science');

    const [cjk] = (await search('結構預測')).items;
    expect(cjk!.snippet!.filter((s) => s.highlight).map((s) => s.text)).toEqual(['結構預測']);

    const [content] = (await search('photosynthesis')).items;
    expect(content!.snippet!.find((s) => s.highlight)?.text).toBe('photosynthesis');

    // no q, no snippet
    const plain = await t.app.inject({ method: 'GET', url: '/articles?limit=1' });
    expect(plain.json<Page>().items[0]!.snippet).toBeNull();
  });

  it('treats hostile queries as text', async () => {
    for (const q of ["'; drop table articles; --", '%_', '\\', '"unclosed', '-', 'or', '!!!', '<script>'])
      expect((await search(q)).total).toBeGreaterThanOrEqual(0);
    expect((await search('%_')).total).toBe(0);
  });
});
