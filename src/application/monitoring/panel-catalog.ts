/**
 * Every dashboard query, built from the global filters in one place. The Metrics tab reads the
 * metrics store (the service's GET /metrics, scraped); the other tabs read the log and trace
 * stores. Logs are pino JSON lines shipped over OTLP (docs/decisions/0020-log-events.md): the stream
 * labels are `service_name` and `deployment_environment` (the OTLP resource attributes, as the log
 * store's OTLP ingest names them).
 */
export const TIME_RANGES = ['6h', '24h', '3d', '7d'] as const;
export const ENVIRONMENTS = ['all', 'local', 'production'] as const;
export type TimeRange = (typeof TIME_RANGES)[number];
export type Environment = (typeof ENVIRONMENTS)[number];

export interface PanelQuery {
  id: string;
  query?: string;
  q?: string;
  start: string;
  end: string;
  step?: string;
  limit?: number;
  direction?: 'backward' | 'forward';
  minDuration?: string;
}

export interface Panel {
  id: string;
  tab: 'operations' | 'logs' | 'traces' | 'metrics';
  title: string;
  kind: 'stat' | 'timeseries' | 'logs' | 'traces';
  datasource: 'log-metrics' | 'logs' | 'traces' | 'metrics';
  unit?: string;
  level?: 'error' | 'warn' | 'info';
  query: PanelQuery;
}

const RANGE: Record<TimeRange, { seconds: number; step: string; stepSeconds: number }> = {
  '6h': { seconds: 6 * 3600, step: '5m', stepSeconds: 300 },
  '24h': { seconds: 24 * 3600, step: '15m', stepSeconds: 900 },
  '3d': { seconds: 3 * 86400, step: '1h', stepSeconds: 3600 },
  '7d': { seconds: 7 * 86400, step: '3h', stepSeconds: 10800 },
};

export const SERVICE = 'article-intel';

export function buildPanels(range: TimeRange, env: Environment, now: Date, service = SERVICE) {
  const r = RANGE[range];
  // align to the step so repeated ticks within a step ask the same question (cache-friendly)
  const endS = Math.ceil(now.getTime() / 1000 / r.stepSeconds) * r.stepSeconds;
  const startS = endS - r.seconds;
  const ns = (s: number) => `${BigInt(s) * 1_000_000_000n}`;
  const start = ns(startS);
  const end = ns(endS);
  const sel = `{service_name="${service}"${env === 'all' ? '' : `, deployment_environment="${env}"`}}`;
  const ev = (name: string) => `${sel} | json | event="${name}"`;
  const w = `[${r.step}]`;
  const whole = `[${range}]`;
  const metric = (id: string, query: string, step = r.step) => ({ id, query, start, end, step });
  // the metrics store (Prometheus API) takes unix seconds; its series carry the scrape job's labels,
  // so the environment is the `deployment_environment` label the README's scrape config adds
  const promSel = env === 'all' ? '' : `{deployment_environment="${env}"}`;
  const prom = (id: string, query: string) => ({
    id,
    query,
    start: String(startS),
    end: String(endS),
    step: r.step,
  });
  const logsOf = (id: string, level: string) => ({
    id,
    query: `${sel} | json | level="${level}"`,
    start,
    end,
    limit: 100,
    direction: 'backward' as const,
  });

  const panels: Panel[] = [
    // Operations: stat cards over the whole range, series per step
    {
      id: 'ops-runs',
      tab: 'operations',
      title: 'Scraper runs',
      kind: 'stat',
      datasource: 'log-metrics',
      query: metric(
        'ops-runs',
        `sum(count_over_time(${ev('scraper.run.completed')} ${whole}))`,
        `${r.seconds}s`,
      ),
    },
    {
      id: 'ops-published',
      tab: 'operations',
      title: 'Articles published',
      kind: 'stat',
      datasource: 'log-metrics',
      query: metric(
        'ops-published',
        `sum(sum_over_time(${ev('scraper.run.completed')} | unwrap counts_published ${whole}))`,
        `${r.seconds}s`,
      ),
    },
    {
      id: 'ops-failures',
      tab: 'operations',
      title: 'Article failures',
      kind: 'stat',
      datasource: 'log-metrics',
      query: metric(
        'ops-failures',
        `sum(count_over_time(${sel} | json | event=~"article\\\\..*\\\\.failed" ${whole}))`,
        `${r.seconds}s`,
      ),
    },
    {
      id: 'ops-llm-tokens',
      tab: 'operations',
      title: 'LLM tokens',
      kind: 'stat',
      datasource: 'log-metrics',
      unit: 'tokens',
      query: metric(
        'ops-llm-tokens',
        `sum(sum_over_time(${ev('llm.call.completed')} | unwrap tokens ${whole}))`,
        `${r.seconds}s`,
      ),
    },
    {
      id: 'ops-views-flushed',
      tab: 'operations',
      title: 'Views flushed',
      kind: 'stat',
      datasource: 'log-metrics',
      query: metric(
        'ops-views-flushed',
        `sum(sum_over_time(${ev('views.flush.completed')} | unwrap views ${whole}))`,
        `${r.seconds}s`,
      ),
    },
    {
      id: 'ops-run-duration',
      tab: 'operations',
      title: 'Run duration (avg and max)',
      kind: 'timeseries',
      datasource: 'log-metrics',
      unit: 'ms',
      query: metric(
        'ops-run-duration',
        `label_replace(avg_over_time(${ev('scraper.run.completed')} | unwrap duration_ms ${w}), "stat", "avg", "", "") or label_replace(max_over_time(${ev('scraper.run.completed')} | unwrap duration_ms ${w}), "stat", "max", "", "")`,
      ),
    },
    {
      id: 'ops-failures-by-stage',
      tab: 'operations',
      title: 'Failures by stage',
      kind: 'timeseries',
      datasource: 'log-metrics',
      query: metric(
        'ops-failures-by-stage',
        `sum by (stage) (count_over_time(${sel} | json | event=~"article\\\\..*\\\\.failed" ${w}))`,
      ),
    },
    {
      id: 'ops-published-series',
      tab: 'operations',
      title: 'Articles published over time',
      kind: 'timeseries',
      datasource: 'log-metrics',
      query: metric(
        'ops-published-series',
        `sum(sum_over_time(${ev('scraper.run.completed')} | unwrap counts_published ${w}))`,
      ),
    },
    {
      id: 'ops-llm-calls',
      tab: 'operations',
      title: 'LLM calls per second',
      kind: 'timeseries',
      datasource: 'log-metrics',
      unit: '/s',
      query: metric('ops-llm-calls', `sum by (purpose) (rate(${ev('llm.call.completed')} ${w}))`),
    },
    // Logs: volume by level, and one table per fixed level
    {
      id: 'logs-volume',
      tab: 'logs',
      title: 'Log volume by level',
      kind: 'timeseries',
      datasource: 'log-metrics',
      query: metric('logs-volume', `sum by (level) (count_over_time(${sel} | json ${w}))`),
    },
    {
      id: 'logs-error',
      tab: 'logs',
      title: 'Errors',
      kind: 'logs',
      datasource: 'logs',
      level: 'error',
      query: logsOf('logs-error', 'error'),
    },
    {
      id: 'logs-warn',
      tab: 'logs',
      title: 'Warnings',
      kind: 'logs',
      datasource: 'logs',
      level: 'warn',
      query: logsOf('logs-warn', 'warn'),
    },
    {
      id: 'logs-info',
      tab: 'logs',
      title: 'Info',
      kind: 'logs',
      datasource: 'logs',
      level: 'info',
      query: logsOf('logs-info', 'info'),
    },
    // Traces: the runs table from the trace store, run duration and errors over time from the logs
    {
      id: 'traces-runs',
      tab: 'traces',
      title: 'Scraper runs',
      kind: 'traces',
      datasource: 'traces',
      query: {
        id: 'traces-runs',
        q: `{ name = "scraper.run"${env === 'all' ? '' : ` && resource.deployment.environment = "${env}"`} }`,
        start: String(startS),
        end: String(endS),
        limit: 20,
      },
    },
    {
      id: 'traces-duration',
      tab: 'traces',
      title: 'Run duration',
      kind: 'timeseries',
      datasource: 'log-metrics',
      unit: 'ms',
      query: metric(
        'traces-duration',
        `max_over_time(${ev('scraper.run.completed')} | unwrap duration_ms ${w})`,
      ),
    },
    {
      id: 'traces-errors',
      tab: 'traces',
      title: 'Error spans over time',
      kind: 'timeseries',
      datasource: 'log-metrics',
      query: metric(
        'traces-errors',
        `sum(count_over_time(${sel} | json | event=~"(article\\\\..*\\\\.failed|pipeline\\\\.handler\\\\.failed|scraper\\\\.run\\\\.failed)" ${w}))`,
      ),
    },
    // Metrics: the service's own /metrics as the metrics store scraped it (a tab of its own: the
    // Operations, Logs and Traces tabs read only the log and trace stores: README, "Monitoring proxy and dashboard")
    {
      id: 'met-articles',
      tab: 'metrics',
      title: 'Articles through the pipeline, by stage',
      kind: 'timeseries',
      datasource: 'metrics',
      query: prom('met-articles', `sum by (stage) (increase(pipeline_articles_total${promSel}${w}))`),
    },
    {
      id: 'met-runs',
      tab: 'metrics',
      title: 'Scraper runs, by status',
      kind: 'timeseries',
      datasource: 'metrics',
      query: prom('met-runs', `sum by (status) (increase(scraper_runs_total${promSel}${w}))`),
    },
    {
      id: 'met-failures',
      tab: 'metrics',
      title: 'Pipeline failures, by stage',
      kind: 'timeseries',
      datasource: 'metrics',
      query: prom('met-failures', `sum by (stage) (increase(pipeline_failures_total${promSel}${w}))`),
    },
    {
      id: 'met-run-duration',
      tab: 'metrics',
      title: 'Run duration (p95)',
      kind: 'timeseries',
      datasource: 'metrics',
      unit: 's',
      query: prom(
        'met-run-duration',
        `histogram_quantile(0.95, sum by (le) (rate(scraper_run_duration_seconds_bucket${promSel}${w})))`,
      ),
    },
  ];
  return { range, env, start, end, step: r.step, refresh_interval_seconds: 60, panels };
}
