import { parseModelJson, type LanguageModel } from '../shared/llm.js';
import type { Logger } from '../shared/ports.js';

export interface AnalysisInput {
  articleId: string;
  runId: string;
  title: string;
  text: string;
  language: string | null;
}

export interface Analysis {
  summary: string;
  tags: string[];
  language: string;
}

export interface ArticleAnalyzer {
  readonly name: string;
  analyze(input: AnalysisInput): Promise<Analysis>;
}

const MAX_INPUT_CHARS = 8000;

const cleanTags = (tags: unknown): string[] =>
  Array.isArray(tags)
    ? [
        ...new Set(
          tags
            .filter((t): t is string => typeof t === 'string')
            .map((t) => t.trim().toLowerCase().replace(/\s+/g, ' '))
            .filter((t) => t.length > 0 && t.length <= 60),
        ),
      ].slice(0, 8)
    : [];

/** Calls the model and logs llm.call.completed with the token counts. */
async function call(
  model: LanguageModel,
  log: Logger,
  purpose: string,
  ids: { articleId: string; runId: string },
  system: string,
  user: string,
): Promise<Record<string, unknown>> {
  const started = Date.now();
  const res = await model.complete({
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    json: true,
    temperature: 0.2,
  });
  log.info({
    event: 'llm.call.completed',
    purpose,
    provider: model.providerName,
    run_id: ids.runId,
    article_id: ids.articleId,
    duration_ms: Date.now() - started,
    prompt_tokens: res.usage.promptTokens,
    completion_tokens: res.usage.completionTokens,
    tokens: res.usage.promptTokens + res.usage.completionTokens,
  });
  const parsed = parseModelJson(res.text);
  if (!parsed || typeof parsed !== 'object') throw new Error('the model did not answer a JSON object');
  return parsed as Record<string, unknown>;
}

export const ANALYSIS_PROMPT =
  'You analyze articles for a research news service. Answer only a JSON object ' +
  '{"summary": "2-3 sentences in English", "tags": ["3 to 6 short lowercase topic tags"], ' +
  '"language": "ISO 639-1 code of the article text"}.';

export const TRANSLATION_PROMPT =
  'Translate the article title and summary into Traditional Chinese (zh-TW). Answer only a JSON ' +
  'object {"title": "...", "summary": "..."}.';

/** Summary and tags by the active provider's model. */
export class LlmAnalyzer implements ArticleAnalyzer {
  constructor(
    private readonly model: LanguageModel,
    private readonly log: Logger,
  ) {}
  get name(): string {
    return this.model.providerName;
  }

  async analyze(input: AnalysisInput): Promise<Analysis> {
    const out = await call(
      this.model,
      this.log,
      'analysis',
      input,
      ANALYSIS_PROMPT,
      `Title: ${input.title}\n\n${input.text.slice(0, MAX_INPUT_CHARS)}`,
    );
    const summary = typeof out.summary === 'string' ? out.summary.trim() : '';
    if (!summary) throw new Error('the model answered without a summary');
    const language =
      typeof out.language === 'string' && /^[a-z]{2}(-[A-Za-z]{2,4})?$/.test(out.language)
        ? out.language
        : (input.language ?? 'en');
    return { summary, tags: cleanTags(out.tags), language };
  }
}

export async function translateToZhTw(
  model: LanguageModel,
  log: Logger,
  ids: { articleId: string; runId: string },
  title: string,
  summary: string | null,
): Promise<{ title: string; summary: string | null }> {
  const out = await call(
    model,
    log,
    'translation',
    ids,
    TRANSLATION_PROMPT,
    JSON.stringify({ title, summary: summary ?? '' }),
  );
  const t = typeof out.title === 'string' ? out.title.trim() : '';
  if (!t) throw new Error('the model answered without a translated title');
  const s = typeof out.summary === 'string' && out.summary.trim() ? out.summary.trim() : null;
  return { title: t, summary: summary ? s : null };
}
