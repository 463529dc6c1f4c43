/**
 * The evaluation set of "Ask the corpus" (bench/fixtures/ask-eval/, origins in its README): its
 * articles put into a database as the pipeline would have stored them, and its questions.
 */
import { readFileSync } from 'node:fs';
import { type Db, articles, topics } from '../../src/composition/bench-entry.js';

export interface EvalArticle {
  key: string;
  source: string;
  title: string;
  url: string;
  published_at: string | null;
  summary: string | null;
  content: string | null;
  translation_zh_tw?: { title: string; summary: string };
}

export interface EvalQuestion {
  id: string;
  language: 'en' | 'zh-TW';
  question: string;
  /** the article that answers it; null: nothing in the set does */
  answer_key: string | null;
}

const dir = new URL('../fixtures/ask-eval/', import.meta.url);
export const evalArticles = (): EvalArticle[] =>
  JSON.parse(readFileSync(new URL('articles.json', dir), 'utf8')) as EvalArticle[];
export const evalQuestions = (): EvalQuestion[] =>
  JSON.parse(readFileSync(new URL('questions.json', dir), 'utf8')) as EvalQuestion[];

/** Inserts the set's articles into a new topic; answers the topic id and article id by key. */
export async function loadEvalCorpus(
  db: Db,
  topicName = 'Ask evaluation',
): Promise<{ topicId: string; ids: Map<string, string> }> {
  const slug = `ask-eval-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const [topic] = await db
    .insert(topics)
    .values({ name: `${topicName} ${slug}`, slug })
    .returning();
  const ids = new Map<string, string>();
  for (const a of evalArticles()) {
    const [row] = await db
      .insert(articles)
      .values({
        topicId: topic!.id,
        source: a.source,
        url: a.url,
        canonicalUrl: `${a.url}#${slug}`,
        title: a.title,
        normalizedTitle: a.title.toLowerCase(),
        summary: a.summary,
        content: a.content,
        language: 'en',
        publishedAt: a.published_at ? new Date(a.published_at) : null,
        translations: a.translation_zh_tw ? { 'zh-TW': a.translation_zh_tw } : {},
        processingStatus: 'completed',
      })
      .returning({ id: articles.id });
    ids.set(a.key, row!.id);
  }
  return { topicId: topic!.id, ids };
}
