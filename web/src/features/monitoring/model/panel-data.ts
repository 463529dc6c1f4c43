import type {
  Attr,
  MatrixSeries,
  PanelQuery,
  SpanJson,
  StreamResult,
  TraceDetail,
  TraceSummary,
} from './types';

/** A payload that is not the shape a panel expects: the panel shows an error and logs the raw body. */
export class FormatError extends Error {
  constructor(
    message: string,
    readonly raw: unknown,
  ) {
    super(message);
    this.name = 'FormatError';
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Metrics/log-aggregate results: `{status, data: {resultType: 'matrix', result: [...]}}`. */
export function readMatrix(payload: unknown): MatrixSeries[] {
  const data = isObj(payload) && isObj(payload.data) ? payload.data : null;
  if (!data || data.resultType !== 'matrix' || !Array.isArray(data.result))
    throw new FormatError('expected a matrix result', payload);
  for (const s of data.result) {
    if (!isObj(s) || !Array.isArray(s.values)) throw new FormatError('matrix series without values', payload);
  }
  return data.result as MatrixSeries[];
}

/** Log range results: `{status, data: {resultType: 'streams', result: [...]}}`. */
export function readStreams(payload: unknown): StreamResult[] {
  const data = isObj(payload) && isObj(payload.data) ? payload.data : null;
  if (!data || data.resultType !== 'streams' || !Array.isArray(data.result))
    throw new FormatError('expected a streams result', payload);
  return data.result as StreamResult[];
}

export function readTraces(payload: unknown): TraceSummary[] {
  if (!isObj(payload) || !Array.isArray(payload.traces))
    throw new FormatError('expected a trace search result', payload);
  return payload.traces as TraceSummary[];
}

/** The latest total across series (a stat card): the sum of each series' last value. */
export function statValue(series: MatrixSeries[]): number | null {
  let total: number | null = null;
  for (const s of series) {
    const last = s.values.at(-1);
    if (!last) continue;
    const v = Number(last[1]);
    if (Number.isFinite(v)) total = (total ?? 0) + v;
  }
  return total;
}

/** uPlot's column data: x = shared timestamps, then one y array per series (null where missing). */
export function toUplotData(series: MatrixSeries[]): { labels: string[]; data: (number | null)[][] } {
  const xs = [...new Set(series.flatMap((s) => s.values.map(([t]) => Number(t))))].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const ys = series.map((s) => {
    const col: (number | null)[] = new Array<number | null>(xs.length).fill(null);
    for (const [t, v] of s.values) {
      const n = Number(v);
      col[index.get(Number(t))!] = Number.isFinite(n) ? n : null;
    }
    return col;
  });
  return { labels: series.map((s) => seriesLabel(s.metric)), data: [xs, ...ys] };
}

export function seriesLabel(metric: Record<string, string>): string {
  const entries = Object.entries(metric).filter(([k]) => !k.startsWith('__'));
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(', ') : 'value';
}

export interface LogRow {
  key: string;
  /** nanoseconds since epoch, as the store gives it */
  ts: string;
  line: string;
  labels: Record<string, string>;
  fields: Record<string, unknown>;
}

/** Log lines newest first, JSON lines parsed into fields (event, correlation_id, ...). */
export function toLogRows(streams: StreamResult[]): LogRow[] {
  const rows: LogRow[] = [];
  for (const s of streams)
    for (const [ts, line] of s.values) {
      let fields: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(line);
        if (isObj(parsed)) fields = parsed;
      } catch {
        /* a plain text line */
      }
      rows.push({ key: `${ts}:${rows.length}`, ts, line, labels: s.stream, fields });
    }
  return rows.sort((a, b) => (BigInt(b.ts) > BigInt(a.ts) ? 1 : BigInt(b.ts) < BigInt(a.ts) ? -1 : 0));
}

export const nsToDate = (ns: string | number) => new Date(Number(BigInt(String(ns)) / 1_000_000n));

export const attr = (attrs: Attr[] | undefined, key: string): string | undefined => {
  const v = attrs?.find((a) => a.key === key)?.value;
  if (!v) return undefined;
  return (
    v.stringValue ??
    (v.intValue !== undefined
      ? String(v.intValue)
      : v.boolValue !== undefined
        ? String(v.boolValue)
        : v.doubleValue !== undefined
          ? String(v.doubleValue)
          : undefined)
  );
};

/** The age of stale data as a message key and number: "12 s ago", "3 min ago", "2 h ago". */
export function age(fetchedAt: number, now: number): { unit: 's' | 'min' | 'h'; n: number } {
  const s = Math.max(0, Math.round((now - fetchedAt) / 1000));
  if (s < 60) return { unit: 's', n: s };
  const m = Math.round(s / 60);
  if (m < 60) return { unit: 'min', n: m };
  return { unit: 'h', n: Math.round(m / 60) };
}

/** A time as the stores take it (unix s/ms/us/ns digits or RFC 3339) in unix seconds. */
export function toSeconds(t: string | number): number {
  const digits = String(t);
  if (/^\d+$/.test(digits)) {
    const n = Number(digits);
    return digits.length >= 18 ? n / 1e9 : digits.length >= 15 ? n / 1e6 : digits.length >= 12 ? n / 1e3 : n;
  }
  return Date.parse(digits) / 1000;
}

/** The [start, end] a query asked for, in unix seconds: the x axis of its chart. */
export const queryWindow = (q: PanelQuery): [number, number] => [toSeconds(q.start), toSeconds(q.end)];

export interface WaterfallRow {
  span: SpanJson;
  depth: number;
  /** ms from the trace start */
  offsetMs: number;
  durationMs: number;
  error: boolean;
}

/** Every span of a trace, depth-first in start order, with its offset and duration (the Gantt rows). */
export function waterfallRows(detail: TraceDetail): { rows: WaterfallRow[]; totalMs: number } {
  const spans = allSpans(detail);
  if (!spans.length) return { rows: [], totalMs: 0 };
  const start = spans.reduce(
    (m, s) => (BigInt(s.startTimeUnixNano) < m ? BigInt(s.startTimeUnixNano) : m),
    BigInt(spans[0]!.startTimeUnixNano),
  );
  const end = spans.reduce((m, s) => (BigInt(s.endTimeUnixNano) > m ? BigInt(s.endTimeUnixNano) : m), 0n);
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string, SpanJson[]>();
  const roots: SpanJson[] = [];
  for (const s of spans) {
    if (s.parentSpanId && ids.has(s.parentSpanId)) {
      const list = children.get(s.parentSpanId) ?? [];
      list.push(s);
      children.set(s.parentSpanId, list);
    } else roots.push(s);
  }
  const byStart = (a: SpanJson, b: SpanJson) =>
    BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1;
  const rows: WaterfallRow[] = [];
  // iterative depth-first walk: a 5,000-span trace must not blow the stack
  const stack: [SpanJson, number][] = roots
    .sort(byStart)
    .reverse()
    .map((s) => [s, 0]);
  while (stack.length) {
    const [s, depth] = stack.pop()!;
    rows.push({
      span: s,
      depth,
      offsetMs: Number(BigInt(s.startTimeUnixNano) - start) / 1e6,
      durationMs: Math.max(0, Number(BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano)) / 1e6),
      error: spanStatus(s) === 'error',
    });
    const kids = (children.get(s.spanId) ?? []).sort(byStart);
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i]!, depth + 1]);
  }
  return { rows, totalMs: Number(end - start) / 1e6 };
}

/**
 * A span's status: OTLP JSON from the SDK says `code: 2`, the trace store's protobuf JSON says
 * `code: "STATUS_CODE_ERROR"` (and `status: {}` for unset), as Tempo's `GET /api/traces/<id>` answers.
 */
export function spanStatus(s: SpanJson): 'ok' | 'error' | 'unset' {
  const code = s.status?.code;
  if (code === 2 || code === 'STATUS_CODE_ERROR') return 'error';
  if (code === 1 || code === 'STATUS_CODE_OK') return 'ok';
  return 'unset';
}

export function allSpans(detail: TraceDetail): SpanJson[] {
  return detail.batches.flatMap((b) => (b.scopeSpans ?? []).flatMap((ss) => ss.spans ?? []));
}

export interface ArticleStages {
  pipelineSpanId: string;
  url: string;
  source?: string;
  error: boolean;
  stages: { name: string; status: 'ok' | 'error' | 'unset'; durationMs: number; message?: string }[];
}

/** One entry per `article.pipeline` span, its handler spans (all descendants) as ordered stages. */
export function articlePipelines(detail: TraceDetail): ArticleStages[] {
  const spans = allSpans(detail);
  const children = new Map<string, SpanJson[]>();
  for (const s of spans)
    if (s.parentSpanId) children.set(s.parentSpanId, [...(children.get(s.parentSpanId) ?? []), s]);
  const descendants = (id: string): SpanJson[] => {
    const out: SpanJson[] = [];
    const stack = [...(children.get(id) ?? [])];
    while (stack.length) {
      const s = stack.pop()!;
      out.push(s);
      stack.push(...(children.get(s.spanId) ?? []));
    }
    return out;
  };
  return spans
    .filter((s) => s.name === 'article.pipeline')
    .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1))
    .map((p) => {
      const stages = descendants(p.spanId)
        .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1))
        .map((s) => ({
          name: s.name,
          status: spanStatus(s),
          durationMs: Number(BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano)) / 1e6,
          message: s.status?.message || exceptionMessage(s),
        }));
      return {
        pipelineSpanId: p.spanId,
        url: attr(p.attributes, 'article.url') ?? p.spanId,
        source: attr(p.attributes, 'article.source'),
        error: spanStatus(p) === 'error' || stages.some((s) => s.status === 'error'),
        stages,
      };
    });
}

function exceptionMessage(s: SpanJson): string | undefined {
  const ev = s.events?.find((e) => e.name === 'exception');
  return ev ? attr(ev.attributes, 'exception.message') : undefined;
}

/** `deployment.environment` of a search hit (the attributes of its `spanSet` or `spanSets`). */
export function traceEnvironment(t: TraceSummary): string | undefined {
  for (const s of [t.spanSet, ...(t.spanSets ?? [])].flatMap((set) => set?.spans ?? [])) {
    const env = attr(s.attributes, 'deployment.environment');
    if (env) return env;
  }
  return undefined;
}

/**
 * The panel catalog carries absolute windows (Loki in ns, Tempo in s) computed when it was fetched;
 * every tick and refresh slides them forward by the time since, so the data never ages with the
 * page. The unit is kept as found: 16+ digits ns, 12+ digits ms, fewer digits s, RFC 3339 stays RFC 3339.
 */
export function slideWindow(q: PanelQuery, byMs: number): PanelQuery {
  if (byMs <= 0) return q;
  return { ...q, start: slideTime(q.start, byMs), end: slideTime(q.end, byMs) };
}

function slideTime(t: string | number, byMs: number): string | number {
  const digits = String(t);
  if (/^\d+$/.test(digits)) {
    const by =
      digits.length >= 16
        ? BigInt(Math.round(byMs)) * 1_000_000n
        : digits.length >= 12
          ? BigInt(Math.round(byMs))
          : BigInt(Math.floor(byMs / 1000));
    const next = BigInt(digits) + by;
    return typeof t === 'number' ? Number(next) : String(next);
  }
  const ms = Date.parse(digits);
  return Number.isNaN(ms) ? t : new Date(ms + byMs).toISOString();
}
