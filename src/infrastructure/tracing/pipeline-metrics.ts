import type { Counter, Histogram } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import type { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { PipelineMetrics } from '../../application/pipeline/pipeline.ports.js';
import type { PipelineCompletedEvent } from '../../application/pipeline/pipeline.events.js';
import type { ExportFailureReporter } from './export-failures.js';

const FAILURE = /_failed$/;

/** Run duration, articles per stage and failures per stage, pushed at the end of each run. */
export class OtelPipelineMetrics implements PipelineMetrics {
  private readonly duration: Histogram;
  private readonly runs: Counter;
  private readonly articles: Counter;
  private readonly failures: Counter;

  constructor(
    private readonly provider: MeterProvider,
    private readonly reporter: ExportFailureReporter,
  ) {
    const meter = provider.getMeter('article-intel.pipeline');
    this.duration = meter.createHistogram('scraper_run_duration_seconds', {
      unit: 's',
      description: 'scraper run duration',
    });
    this.runs = meter.createCounter('scraper_runs_total', { description: 'scraper runs by status' });
    this.articles = meter.createCounter('pipeline_articles_total', {
      description: 'articles per pipeline stage',
    });
    this.failures = meter.createCounter('pipeline_failures_total', {
      description: 'failures per pipeline stage',
    });
  }

  async recordRun(e: PipelineCompletedEvent): Promise<void> {
    this.duration.record(e.durationMs / 1000, { status: e.status });
    this.runs.add(1, { status: e.status });
    for (const [key, n] of Object.entries(e.counts)) {
      if (FAILURE.test(key)) this.failures.add(n, { stage: key.replace(FAILURE, '') });
      else this.articles.add(n, { stage: key });
    }
    try {
      await this.provider.forceFlush();
    } catch (err) {
      this.reporter.result('metrics', { code: ExportResultCode.FAILED, error: err as Error });
    }
  }
}
