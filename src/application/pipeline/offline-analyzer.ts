/**
 * The built-in analyzer used when no provider is active (shared/text/plain-text.ts does the work):
 * all plain text, deterministic and fast, so the pipeline runs with no external service.
 */
import { detectLanguage, extractiveSummary, keywordTags, plainText } from '../shared/text/plain-text.js';
import type { Analysis, ArticleAnalyzer, AnalysisInput } from './analysis.js';

export class OfflineAnalyzer implements ArticleAnalyzer {
  readonly name = 'built-in';
  analyze(input: AnalysisInput): Promise<Analysis> {
    const title = plainText(input.title);
    const text = plainText(input.text);
    return Promise.resolve({
      // no text but the title: no summary rather than the title again
      summary: extractiveSummary(text, { title }),
      tags: keywordTags(title, text),
      language: input.language ?? detectLanguage(`${title} ${text || title}`),
    });
  }
}
