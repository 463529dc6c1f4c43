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
  /** the zh-TW title and summary, when the model wrote them in the same answer */
  translation?: ZhTranslation;
  /** what the model's calls for this analysis cost (none for the built-in analyzer) */
  usage?: LlmUsage;
}

export interface ZhTranslation {
  title: string;
  summary: string | null;
}

export interface LlmUsage {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
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
  schema?: { name: string; schema: Record<string, unknown> },
): Promise<{ out: Record<string, unknown>; usage: LlmUsage }> {
  const started = Date.now();
  const res = await model.complete({
    messages: [
      // the fixed instructions first, the article last: providers cache the common prefix
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    json: true,
    schema,
    temperature: 0.2,
    purpose,
    runId: ids.runId,
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
  const usage = {
    calls: 1,
    prompt_tokens: res.usage.promptTokens,
    completion_tokens: res.usage.completionTokens,
  };
  const parsed = parseModelJson(res.text);
  if (!parsed || typeof parsed !== 'object') throw new Error('the model did not answer a JSON object');
  return { out: parsed as Record<string, unknown>, usage };
}

export const addUsage = (a: LlmUsage | undefined, b: LlmUsage): LlmUsage => ({
  calls: (a?.calls ?? 0) + b.calls,
  prompt_tokens: (a?.prompt_tokens ?? 0) + b.prompt_tokens,
  completion_tokens: (a?.completion_tokens ?? 0) + b.completion_tokens,
});

/**
 * One call per article: summary, tags, language and the zh-TW title and summary in one answer
 * (a JSON schema). The instructions are the same for every article and come first, so providers
 * that cache prompt prefixes bill them once.
 */
export const ANALYSIS_PROMPT =
  'You analyze articles for a research news service. Answer only a JSON object ' +
  '{"summary": "2-3 sentences in English", "tags": ["3 to 6 short lowercase topic tags"], ' +
  '"language": "ISO 639-1 code of the article text", ' +
  '"zh_tw": {"title": "the title in Traditional Chinese (zh-TW)", ' +
  '"summary": "your summary in Traditional Chinese (zh-TW)"}}.';

export const ANALYSIS_SCHEMA = {
  name: 'article_analysis',
  schema: {
    type: 'object',
    additionalProperties: false,
    required: ['summary', 'tags', 'language', 'zh_tw'],
    properties: {
      summary: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      language: { type: 'string' },
      zh_tw: {
        type: 'object',
        additionalProperties: false,
        required: ['title', 'summary'],
        properties: { title: { type: 'string' }, summary: { type: 'string' } },
      },
    },
  },
};

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
    const { out, usage } = await call(
      this.model,
      this.log,
      'analysis',
      input,
      ANALYSIS_PROMPT,
      `Title: ${input.title}\n\n${input.text.slice(0, MAX_INPUT_CHARS)}`,
      ANALYSIS_SCHEMA,
    );
    const summary = typeof out.summary === 'string' ? out.summary.trim() : '';
    if (!summary) throw new Error('the model answered without a summary');
    const language =
      typeof out.language === 'string' && /^[a-z]{2}(-[A-Za-z]{2,4})?$/.test(out.language)
        ? out.language
        : (input.language ?? 'en');
    // an answer without a usable translation is no failure: the translate step asks for it alone
    const translation = zhOf(out.zh_tw, summary);
    return { summary, tags: cleanTags(out.tags), language, usage, ...(translation ? { translation } : {}) };
  }
}

/** The zh-TW part of a model's answer, when it is one: a title, and a summary when there is one to translate. */
function zhOf(value: unknown, summary: string | null): ZhTranslation | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const title = typeof v.title === 'string' ? v.title.trim() : '';
  if (!title) return null;
  const s = typeof v.summary === 'string' && v.summary.trim() ? v.summary.trim() : null;
  return { title, summary: summary ? s : null };
}

export async function translateToZhTw(
  model: LanguageModel,
  log: Logger,
  ids: { articleId: string; runId: string },
  title: string,
  summary: string | null,
): Promise<{ translation: ZhTranslation; usage: LlmUsage }> {
  const { out, usage } = await call(
    model,
    log,
    'translation',
    ids,
    TRANSLATION_PROMPT,
    JSON.stringify({ title, summary: summary ?? '' }),
  );
  const translation = zhOf(out, summary);
  if (!translation) throw new Error('the model answered without a translated title');
  return { translation, usage };
}
