import { parseModelJson, type ChatMessage } from '../shared/llm.js';
import type { ReportArticle, ReportTranslation } from './reports.ports.js';

const SUMMARY_LIMIT = 600;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function signals(a: ReportArticle): string {
  const parts: string[] = [`citations: ${a.citationCount ?? 'unknown'}`, `views: ${a.viewCount}`];
  for (const [key, value] of Object.entries(a.metrics))
    if (key !== 'citation_count') parts.push(`${key}: ${value}`);
  parts.push(`published: ${a.publishedAt ? a.publishedAt.toISOString().slice(0, 10) : 'unknown'}`);
  return parts.join(', ');
}

/**
 * The weekly summary prompt. Articles are numbered from 1 (their position is the citation number);
 * their ids never appear, so the model cannot cite anything but a position.
 */
export function summaryPrompt(input: {
  topicName: string;
  weekLabel: string;
  articles: ReportArticle[];
}): ChatMessage[] {
  const list = input.articles
    .map((a, i) =>
      [
        `[${i + 1}] ${a.title}`,
        `    source: ${a.source}`,
        `    signals: ${signals(a)}`,
        ...(a.summary ? [`    summary: ${clip(a.summary.replace(/\s+/g, ' '), SUMMARY_LIMIT)}`] : []),
      ].join('\n'),
    )
    .join('\n');
  return [
    {
      role: 'system',
      content:
        'You write the weekly research digest of a topic for a general technical audience. ' +
        'Answer with one JSON object {"title": string, "summary_text": string} and nothing else. ' +
        'summary_text is Markdown of 2 to 5 short paragraphs (bullet lists allowed) that synthesizes ' +
        'the week: themes, notable results and why they matter. Cite articles inline as [N], where N ' +
        'is the number of the article in the list; cite only numbers from the list, one number per ' +
        'bracket. The signals (citations, views and other metrics) are one input among several: ' +
        'weigh them together with novelty, relevance to the topic and the content itself; a low ' +
        'count does not make an article unimportant. title is one line of at most 90 characters.',
    },
    {
      role: 'user',
      content: `Topic: ${input.topicName}\n${input.weekLabel}\nArticles (${input.articles.length}):\n${list}`,
    },
  ];
}

export function translationPrompt(source: ReportTranslation, language: string): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        `Translate the JSON object's "title" and "summary_text" into ${language}. Keep the Markdown ` +
        'structure and keep every citation marker such as [1] or [2] exactly as written, at the ' +
        'same place in the sentence. Answer with one JSON object {"title": string, "summary_text": ' +
        'string} and nothing else.',
    },
    { role: 'user', content: JSON.stringify(source) },
  ];
}

/** Validates the model's answer: both fields present, non-empty strings. */
export function parseReportJson(text: string): ReportTranslation {
  const value = parseModelJson(text) as Record<string, unknown> | null;
  const title = typeof value?.title === 'string' ? value.title.trim() : '';
  const summary = typeof value?.summary_text === 'string' ? value.summary_text.trim() : '';
  if (!title || !summary) throw new Error('the model answer lacks a non-empty title or summary_text');
  return { title: clip(title.replace(/\s+/g, ' '), 200), summary_text: summary };
}
