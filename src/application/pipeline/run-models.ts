import type { LanguageModel, LanguageModelFactory } from '../shared/llm.js';
import type { Logger } from '../shared/ports.js';
import { LlmAnalyzer, type ArticleAnalyzer } from './analysis.js';
import { OfflineAnalyzer } from './offline-analyzer.js';
import type { ProviderLookup } from './pipeline.ports.js';

/** The model a run's articles use: chosen when the run starts (or its first job runs here). */
export interface RunModel {
  model: LanguageModel | null;
  analyzer: ArticleAnalyzer;
}

/** The active text provider, else the active multimodal one, else none (built-in analyzer). */
export async function resolveModel(
  providers: ProviderLookup,
  llm: LanguageModelFactory,
): Promise<LanguageModel | null> {
  const provider = (await providers.findActive('text')) ?? (await providers.findActive('multimodal'));
  return provider ? llm.forProvider(provider) : null;
}

/** runs whose model this process keeps at once (the newest) */
const KEPT = 32;

/**
 * The model of each run whose articles this process works on, resolved once per run: every job of
 * a run uses the provider that was active when the run (or its first job here) started.
 */
export class RunModels {
  private readonly runs = new Map<string, Promise<RunModel>>();
  private readonly offline = new OfflineAnalyzer();

  constructor(
    private readonly resolve: () => Promise<LanguageModel | null>,
    private readonly log: Logger,
  ) {}

  forRun(runId: string): Promise<RunModel> {
    let made = this.runs.get(runId);
    if (!made) {
      made = this.resolve().then((model) => ({
        model,
        analyzer: model ? new LlmAnalyzer(model, this.log) : this.offline,
      }));
      made.catch(() => this.runs.delete(runId));
      this.runs.set(runId, made);
      if (this.runs.size > KEPT) this.runs.delete(this.runs.keys().next().value!);
    }
    return made;
  }
}
