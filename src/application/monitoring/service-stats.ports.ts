/** The Service tab of the monitoring page: shapes and the store port (read from our own tables). */

/** Runs started on one UTC day, by outcome. */
/** Runs of every job started on one UTC day, by how they ended (each final status its own count). */
export interface RunsOfDay {
  day: string;
  completed: number;
  /** completed, but some items (sources, articles, topics) failed */
  completed_with_errors: number;
  failed: number;
  /** stopped by a shutdown or a crash */
  interrupted: number;
  /** queued or running now */
  running: number;
}

export interface StageFailures {
  stage: string;
  count: number;
}

export interface SourceArticles {
  source: string;
  count: number;
}

export interface CitationCoverage {
  articles: number;
  with_citation: number;
  /** with_citation / articles; null without articles */
  share: number | null;
}

export interface SourceLastRun {
  source_id: string;
  name: string;
  topic: string;
  enabled: boolean;
  last_fetched_at: string | null;
  last_error: string | null;
  /** when the newest article of this source was stored */
  last_article_at: string | null;
}

/** What the Service tab reads from the service's own database (no monitoring store needed). */
export interface ServiceStatsStore {
  runsPerDay(since: Date): Promise<RunsOfDay[]>;
  failuresPerStage(since: Date): Promise<StageFailures[]>;
  articlesPerSource(since: Date, limit: number): Promise<SourceArticles[]>;
  citationCoverage(since: Date): Promise<CitationCoverage>;
  lastRunPerSource(limit: number): Promise<SourceLastRun[]>;
}

export interface ServiceStats {
  days: number;
  since: string;
  generated_at: string;
  runs_per_day: RunsOfDay[];
  failures_per_stage: StageFailures[];
  articles_per_source: SourceArticles[];
  citation_coverage: CitationCoverage;
  last_run_per_source: SourceLastRun[];
  /** the language model's calls and tokens per day and purpose (analysis, translation, report...) */
  llm_usage_per_day: LlmUsageOfDay[];
}

export interface LlmUsageOfDay {
  day: string;
  purpose: string;
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
}
