import { notFound } from '../../domain/errors.js';
import type { LanguageModelFactory } from '../shared/llm.js';
import type { ProviderRepository } from './catalog.ports.js';

/** The answer of a provider test: whether one small chat request succeeded, and how long it took. */
export interface ProviderTestResult {
  ok: boolean;
  model: string;
  latency_ms: number;
  /** why the request failed (the provider's own message, shortened); absent when ok */
  error?: string;
}

const MAX_ERROR = 300;

/** The provider's message, one line, bounded; a key the provider echoes back is masked. */
const describe = (e: unknown): string => {
  const raw = e instanceof Error ? e.message : String(e);
  const line = raw
    .replace(/\s+/g, ' ')
    .replace(/\b(sk-[A-Za-z0-9_-]{2})[A-Za-z0-9_*-]+/g, '$1…')
    .trim();
  return (line || 'the provider failed without a message').slice(0, MAX_ERROR);
};

/**
 * "Test" on the admin catalog: sends one small chat request to a provider through the same LLM
 * client the pipeline uses, and reports the model, the latency and the failure if any. The
 * request's own failure is an answer (ok: false), not an HTTP error.
 */
export class ProviderTestService {
  constructor(
    private readonly providers: ProviderRepository,
    private readonly llm: LanguageModelFactory,
    private readonly monotonicMs: () => number = () => performance.now(),
  ) {}

  async test(id: string): Promise<ProviderTestResult> {
    const provider = await this.providers.get(id);
    if (!provider) throw notFound('provider', 'provider_not_found');
    const model = this.llm.forProvider(provider);
    const started = this.monotonicMs();
    const elapsed = () => Math.max(0, Math.round(this.monotonicMs() - started));
    try {
      const res = await model.complete({
        messages: [{ role: 'user', content: 'Reply with the single word: ok' }],
        maxTokens: 5,
        temperature: 0,
      });
      // an answer without text is still a working provider; an empty model answer is reported
      return res.text.trim() || res.usage.completionTokens > 0
        ? { ok: true, model: provider.model, latency_ms: elapsed() }
        : { ok: false, model: provider.model, latency_ms: elapsed(), error: 'the model answered no text' };
    } catch (e) {
      return { ok: false, model: provider.model, latency_ms: elapsed(), error: describe(e) };
    }
  }
}
