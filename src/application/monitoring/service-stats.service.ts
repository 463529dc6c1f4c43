import { invalid } from '../../domain/errors.js';
import type { Clock } from '../shared/ports.js';
import type { LlmUsageStore } from '../shared/llm-usage.js';
import type { RunsOfDay, ServiceStats, ServiceStatsStore } from './service-stats.ports.js';

export const MAX_DAYS = 365;
const TOP_SOURCES = 20;
const MAX_SOURCES = 200;

/**
 * The monitoring page's built-in Service tab: runs per day, failures per stage, articles per source,
 * citation coverage and the last run of each source, all from the service's own tables.
 */
export class ServiceStatsService {
  constructor(
    private readonly store: ServiceStatsStore,
    private readonly clock: Clock,
    private readonly llmUsage: Pick<LlmUsageStore, 'perDay'>,
  ) {}

  async stats(days: number): Promise<ServiceStats> {
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS)
      throw invalid(`days is a whole number from 1 to ${MAX_DAYS}`, 'invalid_days');
    const now = this.clock.now();
    // whole UTC days: today and the days - 1 before it
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
    const [runs, failures, perSource, coverage, lastRuns, usage] = await Promise.all([
      this.store.runsPerDay(since),
      this.store.failuresPerStage(since),
      this.store.articlesPerSource(since, TOP_SOURCES),
      this.store.citationCoverage(since),
      this.store.lastRunPerSource(MAX_SOURCES),
      this.llmUsage.perDay(since.toISOString().slice(0, 10)),
    ]);
    return {
      days,
      since: since.toISOString(),
      generated_at: now.toISOString(),
      runs_per_day: fillDays(runs, since, days),
      failures_per_stage: failures,
      articles_per_source: perSource,
      citation_coverage: coverage,
      last_run_per_source: lastRuns,
      llm_usage_per_day: usage,
    };
  }
}

/** One entry per day of the window, zeros where nothing ran (a chart's x axis is the whole window). */
function fillDays(rows: RunsOfDay[], since: Date, days: number): RunsOfDay[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: days }, (_, i) => {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return (
      byDay.get(day) ?? { day, completed: 0, completed_with_errors: 0, failed: 0, interrupted: 0, running: 0 }
    );
  });
}
