import { describe, expect, it } from 'vitest';
import {
  FormatError,
  age,
  queryWindow,
  articlePipelines,
  readMatrix,
  readStreams,
  slideWindow,
  spanStatus,
  statValue,
  traceEnvironment,
  toLogRows,
  toUplotData,
  waterfallRows,
} from '../../web/src/features/monitoring/model/panel-data';
import tempoTrace from '../peers/fixtures/tempo-trace-v1.json';
import tempoSearch from '../peers/fixtures/tempo-search.json';
import type { SpanJson, TraceDetail, TraceSummary } from '../../web/src/features/monitoring/model/types';

const span = (
  id: string,
  parent: string | undefined,
  name: string,
  startMs: number,
  endMs: number,
  error = false,
  attrs: Record<string, string> = {},
): SpanJson => ({
  traceId: 't',
  spanId: id,
  parentSpanId: parent,
  name,
  startTimeUnixNano: String(BigInt(startMs) * 1_000_000n + 1_700_000_000_000_000_000n),
  endTimeUnixNano: String(BigInt(endMs) * 1_000_000n + 1_700_000_000_000_000_000n),
  attributes: Object.entries(attrs).map(([key, v]) => ({ key, value: { stringValue: v } })),
  status: error ? { code: 2, message: 'LLM refused' } : { code: 0 },
});
const detail = (spans: SpanJson[]): TraceDetail => ({ batches: [{ scopeSpans: [{ spans }] }] });

describe('dashboard data model', () => {
  it('reads matrices, sums a stat card and aligns series for uPlot', () => {
    const payload = {
      status: 'success',
      data: {
        resultType: 'matrix',
        result: [
          {
            metric: { level: 'error' },
            values: [
              [100, '1'],
              [160, '3'],
            ],
          },
          { metric: { level: 'info' }, values: [[160, '10']] },
        ],
      },
    };
    const series = readMatrix(payload);
    expect(statValue(series)).toBe(13);
    expect(toUplotData(series)).toEqual({
      labels: ['level=error', 'level=info'],
      data: [
        [100, 160],
        [1, 3],
        [null, 10],
      ],
    });
  });

  it('treats a changed format as an error carrying the raw payload', () => {
    const raw = { data: { resultType: 'vector', result: [] } };
    expect(() => readMatrix(raw)).toThrow(FormatError);
    try {
      readStreams({ nope: true });
    } catch (e) {
      expect((e as FormatError).raw).toEqual({ nope: true });
    }
  });

  it('parses JSON log lines newest first', () => {
    const rows = toLogRows([
      {
        stream: { level: 'error' },
        values: [
          ['1700000000000000001', '{"event":"a","correlation_id":"c1"}'],
          ['1700000000000000003', 'plain'],
        ],
      },
    ]);
    expect(rows.map((r) => r.line)).toEqual(['plain', '{"event":"a","correlation_id":"c1"}']);
    expect(rows[1]!.fields.correlation_id).toBe('c1');
  });

  it('lays out a trace as waterfall rows: depth-first, offsets, errors', () => {
    const d = detail([
      span('c', 'a', 'pipeline.fetch', 10, 30),
      span('a', undefined, 'scraper.run', 0, 100),
      span('b', 'a', 'pipeline.discover', 0, 10),
      span('d', 'c', 'x.child', 12, 20, true),
    ]);
    const { rows, totalMs } = waterfallRows(d);
    expect(totalMs).toBe(100);
    expect(rows.map((r) => [r.span.name, r.depth, r.offsetMs])).toEqual([
      ['scraper.run', 0, 0],
      ['pipeline.discover', 1, 0],
      ['pipeline.fetch', 1, 10],
      ['x.child', 2, 12],
    ]);
    expect(rows.find((r) => r.error)?.span.name).toBe('x.child');
  });

  it('handles 5,000 spans without recursion limits', () => {
    const spans = [span('root', undefined, 'scraper.run', 0, 5000)];
    for (let i = 0; i < 4999; i++)
      spans.push(span(`s${i}`, i === 0 ? 'root' : `s${i - 1}`, 'deep', i, i + 1));
    expect(waterfallRows(detail(spans)).rows).toHaveLength(5000);
  });

  it('groups per-article stages under each article.pipeline span', () => {
    const d = detail([
      span('r', undefined, 'scraper.run', 0, 100),
      span('p1', 'r', 'article.pipeline', 10, 50, false, { 'article.url': 'https://a.test/1' }),
      span('h1', 'p1', 'article.scraped.handle', 10, 12),
      span('h2', 'p1', 'article.analysis_failed.handle', 20, 25, true),
      span('p2', 'r', 'article.pipeline', 11, 40, false, { 'article.url': 'https://a.test/2' }),
      span('h3', 'p2', 'article.scraped.handle', 11, 13),
    ]);
    const articles = articlePipelines(d);
    expect(articles.map((a) => [a.url, a.error, a.stages.map((s) => s.name)])).toEqual([
      ['https://a.test/1', true, ['article.scraped.handle', 'article.analysis_failed.handle']],
      ['https://a.test/2', false, ['article.scraped.handle']],
    ]);
    expect(articles[0]!.stages[1]!.message).toBe('LLM refused');
  });

  it('says how old stale data is', () => {
    expect(age(0, 12_000)).toEqual({ unit: 's', n: 12 });
    expect(age(0, 5 * 60_000)).toEqual({ unit: 'min', n: 5 });
    expect(age(0, 3 * 3600_000)).toEqual({ unit: 'h', n: 3 });
    expect(age(10_000, 0)).toEqual({ unit: 's', n: 0 });
  });

  it('reads the window a query asked for in unix seconds, whatever unit it came in (the chart x axis)', () => {
    const w = (start: string | number, end: string | number) => queryWindow({ id: 'a', start, end });
    expect(w('1700000000000000000', '1700086400000000000')).toEqual([1700000000, 1700086400]);
    expect(w('1700000000000', '1700086400000')).toEqual([1700000000, 1700086400]);
    expect(w(1700000000, 1700086400)).toEqual([1700000000, 1700086400]);
    expect(w('2023-11-14T22:13:20Z', '2023-11-15T22:13:20.000Z')).toEqual([1700000000, 1700086400]);
  });
});

describe('sliding the catalog windows', () => {
  it('moves start and end forward by the elapsed time in the unit they came in', () => {
    const q = { id: 'a', query: 'x', start: '1700000000000000000', end: '1700003600000000000', step: 60 };
    expect(slideWindow(q, 90_500)).toMatchObject({
      start: '1700000090500000000',
      end: '1700003690500000000',
      step: 60,
    });
    expect(slideWindow({ id: 't', q: '{}', start: '1700000000', end: 1700003600 }, 90_500)).toMatchObject({
      start: '1700000090',
      end: 1700003690,
    });
    expect(slideWindow({ id: 'm', start: '1700000000000', end: '1700000001000' }, 5)).toMatchObject({
      start: '1700000000005',
      end: '1700000001005',
    });
    expect(
      slideWindow({ id: 'r', start: '2026-11-22T10:00:00.000Z', end: '2026-11-22T11:00:00.000Z' }, 60_000),
    ).toMatchObject({
      start: '2026-11-22T10:01:00.000Z',
      end: '2026-11-22T11:01:00.000Z',
    });
    expect(slideWindow(q, 0)).toBe(q);
  });
});

describe('the trace store’s own JSON (Tempo): enum names, spanSets', () => {
  it('reads Tempo’s status codes and search span sets as the SDK’s', () => {
    const trace = tempoTrace as unknown as TraceDetail;
    const spans = trace.batches[0]!.scopeSpans![0]!.spans!;
    expect(spans.map((s) => spanStatus(s))).toEqual(['unset', 'unset', 'error']);
    expect(spanStatus({ ...spans[0]!, status: { code: 'STATUS_CODE_OK' } })).toBe('ok');
    expect(spanStatus({ ...spans[0]!, status: { code: 2 } })).toBe('error');
    const rows = waterfallRows(trace).rows;
    expect(rows.map((r) => [r.span.name, r.depth, r.error])).toEqual([
      ['scraper.run', 0, false],
      ['article.pipeline', 1, false],
      ['article.analysis_failed.handle', 2, true],
    ]);
    const [article] = articlePipelines(trace);
    expect(article).toMatchObject({ url: 'https://feed.test/a-1', error: true });
    expect(article!.stages[0]).toMatchObject({ status: 'error', message: 'model refused the request' });

    const search = tempoSearch as unknown as { traces: TraceSummary[] };
    expect(traceEnvironment(search.traces[0]!)).toBe('production');
    const { spanSet: _only, ...newer } = search.traces[0]!;
    expect(traceEnvironment(newer)).toBe('production'); // spanSets alone, as newer Tempo answers
  });
});
