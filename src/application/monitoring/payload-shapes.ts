import { UpstreamError } from './monitoring.ports.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function resultType(payload: unknown): string | undefined {
  if (!isObj(payload) || !isObj(payload.data) || !Array.isArray(payload.data.result)) return undefined;
  return typeof payload.data.resultType === 'string' ? payload.data.resultType : undefined;
}

const format = (what: string, payload: unknown) =>
  new UpstreamError(
    'upstream_format',
    `the data source answered in an unexpected format (expected ${what})`,
    JSON.stringify(payload)?.slice(0, 500),
  );

/** Metrics range query and log aggregate query results: matrix-shaped. */
export function expectMatrix(payload: unknown): unknown {
  if (resultType(payload) !== 'matrix') throw format('a matrix result', payload);
  return payload;
}

/** Log range query: streams, or a matrix when the query is an aggregate. */
export function expectLogs(payload: unknown): unknown {
  const t = resultType(payload);
  if (t !== 'streams' && t !== 'matrix') throw format('a streams or matrix result', payload);
  return payload;
}

export function expectTraceSearch(payload: unknown): unknown {
  if (!isObj(payload) || !Array.isArray(payload.traces)) throw format('a trace search result', payload);
  return payload;
}

/** Trace detail: upstream `batches` or OTLP `resourceSpans`, always answered as `batches`. */
export function normalizeTrace(payload: unknown): { batches: unknown[] } {
  if (isObj(payload) && Array.isArray(payload.batches)) return { batches: payload.batches };
  if (isObj(payload) && Array.isArray(payload.resourceSpans)) return { batches: payload.resourceSpans };
  if (isObj(payload) && isObj(payload.trace) && Array.isArray(payload.trace.resourceSpans))
    return { batches: payload.trace.resourceSpans };
  throw format('a trace with batches or resourceSpans', payload);
}
