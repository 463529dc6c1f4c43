/**
 * An OTLP/HTTP receiver on loopback that decodes the protobuf bodies (the OTLP .proto messages,
 * through protobufjs) of /v1/traces, /v1/logs and /v1/metrics, as a trace store's ingest would.
 */
import protobuf from 'protobufjs';
import { HttpPeer, type RecordedRequest } from './http-peer.js';

const PROTO = `
syntax = "proto3";
package otlp;
message AnyValue {
  oneof value {
    string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4;
    ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7;
  }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
message KeyValue { string key = 1; AnyValue value = 2; }
message InstrumentationScope { string name = 1; string version = 2; }
message Resource { repeated KeyValue attributes = 1; }
message Status { string message = 2; int32 code = 3; }
message Event { fixed64 time_unix_nano = 1; string name = 2; repeated KeyValue attributes = 3; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4;
  string name = 5; int32 kind = 6; fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8;
  repeated KeyValue attributes = 9; repeated Event events = 11; Status status = 15;
}
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message LogRecord {
  fixed64 time_unix_nano = 1; int32 severity_number = 2; string severity_text = 3; AnyValue body = 5;
  repeated KeyValue attributes = 6; bytes trace_id = 9; bytes span_id = 10;
}
message ScopeLogs { InstrumentationScope scope = 1; repeated LogRecord log_records = 2; }
message ResourceLogs { Resource resource = 1; repeated ScopeLogs scope_logs = 2; }
message ExportLogsServiceRequest { repeated ResourceLogs resource_logs = 1; }
message Metric { string name = 1; string description = 2; string unit = 3; }
message ScopeMetrics { InstrumentationScope scope = 1; repeated Metric metrics = 2; }
message ResourceMetrics { Resource resource = 1; repeated ScopeMetrics scope_metrics = 2; }
message ExportMetricsServiceRequest { repeated ResourceMetrics resource_metrics = 1; }
`;

const root = protobuf.parse(PROTO, { keepCase: false }).root;
const TraceRequest = root.lookupType('otlp.ExportTraceServiceRequest');
const LogsRequest = root.lookupType('otlp.ExportLogsServiceRequest');
const MetricsRequest = root.lookupType('otlp.ExportMetricsServiceRequest');

type Scalar = string | number | boolean | null;
type KV = { key: string; value?: Record<string, unknown> };

const valueOf = (v: Record<string, unknown> | undefined): Scalar => {
  if (!v) return null;
  if ('stringValue' in v) return v.stringValue as string;
  if ('boolValue' in v) return v.boolValue as boolean;
  if ('intValue' in v) return Number(v.intValue);
  if ('doubleValue' in v) return v.doubleValue as number;
  return JSON.stringify(v);
};
const attrs = (list: KV[] | undefined): Record<string, Scalar> =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));
const hex = (b: Uint8Array | undefined) => (b && b.length ? Buffer.from(b).toString('hex') : '');

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, Scalar>;
  resource: Record<string, Scalar>;
  /** 0 unset, 1 ok, 2 error */
  statusCode: number;
  statusMessage: string;
  events: string[];
}

export interface ReceivedLog {
  severityText: string;
  body: Scalar;
  attributes: Record<string, Scalar>;
  resource: Record<string, Scalar>;
}

const nanos = (v: unknown): bigint => BigInt(String(v ?? 0));

export class OtlpReceiver {
  readonly peer: HttpPeer;
  spans: ReceivedSpan[] = [];
  logs: ReceivedLog[] = [];
  metrics: { name: string; resource: Record<string, Scalar> }[] = [];
  /** Authorization headers seen */
  auth: string[] = [];
  /** answer every request with this status instead of 200 (an ingest outage) */
  failWith: number | null = null;
  private held: RecordedRequest[] = [];

  /** `lazy`: keep the bodies and decode them on decodeHeld() (benchmarks keep decoding out of the timing) */
  constructor(private readonly opts: { lazy?: boolean } = {}) {
    this.peer = new HttpPeer((req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405).end();
        return;
      }
      this.auth.push(String(req.headers.authorization ?? ''));
      if (this.failWith) {
        res.writeHead(this.failWith).end();
        return;
      }
      if (this.opts.lazy) this.held.push(req);
      else this.decode(req);
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  }

  get url(): string {
    return this.peer.url;
  }

  async start(port = 0): Promise<this> {
    await this.peer.start(port);
    return this;
  }

  stop(): Promise<void> {
    return this.peer.stop();
  }

  decodeHeld(): void {
    for (const req of this.held.splice(0)) this.decode(req);
  }

  private decode(req: RecordedRequest): void {
    const body = req.raw;
    if (req.path.endsWith('/v1/traces')) {
      const msg = TraceRequest.toObject(TraceRequest.decode(body), { longs: String, bytes: Array }) as {
        resourceSpans?: {
          resource?: { attributes?: KV[] };
          scopeSpans?: { spans?: Record<string, unknown>[] }[];
        }[];
      };
      for (const rs of msg.resourceSpans ?? []) {
        const resource = attrs(rs.resource?.attributes);
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? []) {
            const status = (s.status ?? {}) as { code?: number; message?: string };
            this.spans.push({
              traceId: hex(Uint8Array.from(s.traceId as number[])),
              spanId: hex(Uint8Array.from(s.spanId as number[])),
              parentSpanId: hex(Uint8Array.from((s.parentSpanId as number[] | undefined) ?? [])),
              name: s.name as string,
              startNs: nanos(s.startTimeUnixNano),
              endNs: nanos(s.endTimeUnixNano),
              attributes: attrs(s.attributes as KV[]),
              resource,
              statusCode: status.code ?? 0,
              statusMessage: status.message ?? '',
              events: ((s.events as { name: string }[] | undefined) ?? []).map((e) => e.name),
            });
          }
      }
    } else if (req.path.endsWith('/v1/logs')) {
      const msg = LogsRequest.toObject(LogsRequest.decode(body), { longs: String }) as {
        resourceLogs?: {
          resource?: { attributes?: KV[] };
          scopeLogs?: { logRecords?: Record<string, unknown>[] }[];
        }[];
      };
      for (const rl of msg.resourceLogs ?? []) {
        const resource = attrs(rl.resource?.attributes);
        for (const sl of rl.scopeLogs ?? [])
          for (const l of sl.logRecords ?? [])
            this.logs.push({
              severityText: (l.severityText as string) ?? '',
              body: valueOf(l.body as Record<string, unknown>),
              attributes: attrs(l.attributes as KV[]),
              resource,
            });
      }
    } else if (req.path.endsWith('/v1/metrics')) {
      const msg = MetricsRequest.toObject(MetricsRequest.decode(body)) as {
        resourceMetrics?: {
          resource?: { attributes?: KV[] };
          scopeMetrics?: { metrics?: { name: string }[] }[];
        }[];
      };
      for (const rm of msg.resourceMetrics ?? []) {
        const resource = attrs(rm.resource?.attributes);
        for (const sm of rm.scopeMetrics ?? [])
          for (const m of sm.metrics ?? []) this.metrics.push({ name: m.name, resource });
      }
    }
  }

  /** resolves when `check` holds, polling; rejects after the timeout */
  async waitFor(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > until) throw new Error('OTLP receiver: timed out waiting');
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
