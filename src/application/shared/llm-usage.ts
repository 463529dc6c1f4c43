import type { Completion, CompletionRequest, LanguageModel, LanguageModelFactory } from './llm.js';
import type { Provider } from '../../domain/catalog.js';
import type { Logger } from './ports.js';

/**
 * What the language model costs, in the model's own unit: calls and tokens, per UTC day, purpose
 * (analysis, translation, report, grounding, ask...), provider and run. Every call of every
 * feature goes through one metered model (the factory below), so a new feature is counted
 * without doing anything.
 */
export interface LlmUsageEntry {
  /** UTC day, YYYY-MM-DD */
  day: string;
  purpose: string;
  provider: string;
  runId: string | null;
  calls: number;
  promptTokens: number;
  completionTokens: number;
}

export interface LlmUsageTotals {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
}

export interface LlmUsageStore {
  /** adds the entries to the stored sums (one statement) */
  add(entries: LlmUsageEntry[]): Promise<void>;
  /** per day and purpose since a day, oldest first */
  perDay(sinceDay: string): Promise<({ day: string; purpose: string } & LlmUsageTotals)[]>;
  /** per purpose of one run */
  forRun(runId: string): Promise<({ purpose: string } & LlmUsageTotals)[]>;
}

/** how long usage waits in memory before it is written (one statement for every call meanwhile) */
export const USAGE_FLUSH_MS = 1000;

/**
 * Sums calls in memory and writes them once a second in one statement, not a write per call (the
 * pipeline makes one call per article). What a crash loses is at most the last second's counts;
 * a stop writes them (`close`).
 */
export class LlmUsageRecorder {
  private pending = new Map<string, LlmUsageEntry>();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: LlmUsageStore,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  record(purpose: string, provider: string, runId: string | null, usage: Completion['usage']): void {
    const day = this.now().toISOString().slice(0, 10);
    const key = `${day}\u0000${purpose}\u0000${provider}\u0000${runId ?? ''}`;
    const e = this.pending.get(key);
    if (e) {
      e.calls += 1;
      e.promptTokens += usage.promptTokens;
      e.completionTokens += usage.completionTokens;
    } else
      this.pending.set(key, {
        day,
        purpose,
        provider,
        runId,
        calls: 1,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
      });
    this.timer ??= setTimeout(() => void this.flush(), USAGE_FLUSH_MS);
    this.timer.unref?.();
  }

  /** writes what is pending now (and waits for an earlier write) */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const entries = [...this.pending.values()];
    this.pending = new Map();
    this.writing = this.writing.then(async () => {
      if (!entries.length) return;
      try {
        await this.store.add(entries);
      } catch (err) {
        // kept for the next write: a database that is down for a moment loses no counts
        for (const e of entries) this.merge(e);
        this.logger.warn({ event: 'llm.usage.write_failed', err, entries: entries.length });
        this.timer ??= setTimeout(() => void this.flush(), USAGE_FLUSH_MS * 5);
        this.timer.unref?.();
      }
    });
    return this.writing;
  }

  private merge(e: LlmUsageEntry): void {
    const key = `${e.day}\u0000${e.purpose}\u0000${e.provider}\u0000${e.runId ?? ''}`;
    const have = this.pending.get(key);
    if (!have) this.pending.set(key, { ...e });
    else {
      have.calls += e.calls;
      have.promptTokens += e.promptTokens;
      have.completionTokens += e.completionTokens;
    }
  }
}

/** A model whose every answered call is recorded, under the request's purpose and run. */
class MeteredLanguageModel implements LanguageModel {
  readonly providerName: string;
  generateImage?: LanguageModel['generateImage'];

  constructor(
    private readonly inner: LanguageModel,
    private readonly recorder: LlmUsageRecorder,
  ) {
    this.providerName = inner.providerName;
    if (inner.generateImage) this.generateImage = inner.generateImage.bind(inner);
  }

  async complete(req: CompletionRequest): Promise<Completion> {
    const res = await this.inner.complete(req);
    this.recorder.record(req.purpose ?? 'other', this.providerName, req.runId ?? null, res.usage);
    return res;
  }
}

export class MeteredLanguageModelFactory implements LanguageModelFactory {
  constructor(
    private readonly inner: LanguageModelFactory,
    private readonly recorder: LlmUsageRecorder,
  ) {}
  forProvider(provider: Provider): LanguageModel {
    return new MeteredLanguageModel(this.inner.forProvider(provider), this.recorder);
  }
}
