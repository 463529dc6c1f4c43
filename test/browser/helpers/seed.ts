import type { Db } from '../../../src/infrastructure/db/client.js';
import { weeklyReports } from '../../../src/infrastructure/db/schema/index.js';
import {
  makeArticle,
  makeTopic,
  setMetric,
  tagArticle,
  type ArticleRow,
  type TopicRow,
} from '../../helpers/article-factories.js';

export interface ReaderData {
  topic: TopicRow;
  other: TopicRow;
  /** by citation count: high 120, mid 50, low 7, none (no value) */
  high: ArticleRow;
  mid: ArticleRow;
  low: ArticleRow;
  none: ArticleRow;
  reportId: string;
}

/** A topic with four articles of known citation counts (one without a value) and a report citing two. */
export async function seedReaderData(db: Db): Promise<ReaderData> {
  const topic = await makeTopic(db, { name: 'Quantum Computing', slug: `quantum-${Date.now()}` });
  const other = await makeTopic(db, { name: 'Climate Science', slug: `climate-${Date.now()}` });
  const at = (days: number) => new Date(Date.now() - days * 86_400_000);
  const high = await makeArticle(db, {
    topicId: topic.id,
    title: 'Error correction at scale',
    translations: { 'zh-TW': { title: '大規模量子錯誤更正', summary: '更正碼在更大的晶片上運作。' } },
    scrapedAt: at(4),
    publishedAt: at(5),
  });
  const mid = await makeArticle(db, {
    topicId: topic.id,
    title: 'Topological qubits revisited',
    scrapedAt: at(3),
    publishedAt: at(4),
  });
  const low = await makeArticle(db, {
    topicId: topic.id,
    title: 'A photonic processor',
    scrapedAt: at(2),
    publishedAt: at(3),
  });
  const none = await makeArticle(db, {
    topicId: topic.id,
    title: 'Fresh preprint without citations',
    scrapedAt: at(1),
    publishedAt: at(1),
  });
  await makeArticle(db, { topicId: other.id, title: 'Ocean heat content', scrapedAt: at(1) });
  await setMetric(db, high.id, 'citation_count', 120);
  await setMetric(db, mid.id, 'citation_count', 50);
  await setMetric(db, low.id, 'citation_count', 7);
  await tagArticle(db, high, ['error-correction', 'qubits']);
  await tagArticle(db, mid, ['qubits']);

  const monday = new Date();
  monday.setUTCDate(monday.getUTCDate() - ((monday.getUTCDay() + 6) % 7) - 7);
  const [report] = await db
    .insert(weeklyReports)
    .values({
      topicId: topic.id,
      weekStartDate: monday.toISOString().slice(0, 10),
      title: 'Quantum week in review',
      summaryText:
        '## Highlights\n\nPhotonic chips made progress [1], and topological qubits were revisited [2].\n\n- Error correction keeps scaling [3]',
      status: 'completed',
      articleIds: [low.id, mid.id, high.id],
      articleCount: 3,
    })
    .returning();
  return { topic, other, high, mid, low, none, reportId: report!.id };
}
