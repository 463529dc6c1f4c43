import type { LanguageModel, LanguageModelFactory } from '../shared/llm.js';
import type { Logger } from '../shared/ports.js';
import { LlmAnalyzer, type ArticleAnalyzer } from './analysis.js';
import { OfflineAnalyzer } from './offline-analyzer.js';
import type { PipelineArticle, ProviderLookup } from './pipeline.ports.js';

/** What the handlers of one run share: the model chosen at its start and its counters. */
export interface RunState {
  runId: string;
  model: LanguageModel | null;
  analyzer: ArticleAnalyzer;
  counts: Record<string, number>;
  /** the run's new articles as published, kept current by the handlers (saves a read per step) */
  articles: Map<string, PipelineArticle>;
}

/** The active text provider, else the active multimodal one, else none (built-in analyzer). */
export async function resolveModel(
  providers: ProviderLookup,
  llm: LanguageModelFactory,
): Promise<LanguageModel | null> {
  const provider = (await providers.findActive('text')) ?? (await providers.findActive('multimodal'));
  return provider ? llm.forProvider(provider) : null;
}

/** runs of other processes (or of before a restart) whose model this process keeps at once */
const DETACHED_KEPT = 32;

export class RunRegistry {
  private readonly runs = new Map<string, RunState>();
  /** states of runs this process did not open: their article jobs came through the queue */
  private readonly detached = new Map<string, Promise<RunState>>();
  private readonly offline = new OfflineAnalyzer();

  constructor(
    private readonly resolve: () => Promise<LanguageModel | null>,
    private readonly log: Logger,
  ) {}

  async open(runId: string): Promise<RunState> {
    const model = await this.resolve();
    const state: RunState = {
      runId,
      model,
      analyzer: model ? new LlmAnalyzer(model, this.log) : this.offline,
      counts: {},
      articles: new Map(),
    };
    this.runs.set(runId, state);
    return state;
  }

  /**
   * The run's state for an article job: the open run's, else one made for it here with the model of
   * the active provider now (a job of another worker's run, or one resumed after a restart).
   */
  state(runId: string): Promise<RunState> {
    const open = this.runs.get(runId);
    if (open) return Promise.resolve(open);
    let made = this.detached.get(runId);
    if (!made) {
      made = this.resolve().then((model) => ({
        runId,
        model,
        analyzer: model ? new LlmAnalyzer(model, this.log) : this.offline,
        counts: {},
        articles: new Map(),
      }));
      made.catch(() => this.detached.delete(runId));
      this.detached.set(runId, made);
      if (this.detached.size > DETACHED_KEPT) this.detached.delete(this.detached.keys().next().value!);
    }
    return made;
  }

  /** the run's state; an event outside a run (replayed later) gets the built-in analyzer */
  get(runId: string): RunState {
    return (
      this.runs.get(runId) ?? { runId, model: null, analyzer: this.offline, counts: {}, articles: new Map() }
    );
  }

  count(runId: string, key: string, by = 1): void {
    const counts = this.get(runId).counts;
    counts[key] = (counts[key] ?? 0) + by;
  }

  close(runId: string): void {
    this.runs.delete(runId);
  }
}
