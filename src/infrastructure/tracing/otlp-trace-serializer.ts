/**
 * OTLP/protobuf encoding of finished spans (an `ExportTraceServiceRequest`), for the trace
 * exporter: the same bytes as `@opentelemetry/otlp-transformer`'s `ProtobufTraceSerializer` (a
 * test holds the two to byte equality), in one pass instead of two (the upstream serializer sizes
 * the whole request first, then writes it), without a typed array per trace and span id (ids are
 * decoded from hex straight into the output, the run's trace id once), and with strings of any
 * length written by Node's UTF-8 encoder. It is the largest part of what tracing costs the pipeline
 * (`pipeline.tracing_overhead`, docs/performance.md).
 *
 * The message layout (field numbers and order, what is left out when empty) follows the OTLP
 * protos (opentelemetry/proto/trace/v1/trace.proto, common/v1/common.proto) as upstream writes them.
 */
import type { Attributes, AttributeValue, HrTime, SpanContext } from '@opentelemetry/api';
import { OTLPExporterBase, type OTLPExporterNodeConfigBase } from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;

const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

const MIN_INT64 = -(2 ** 63);
const MAX_INT64 = 2 ** 63;

/** a byte buffer that grows; length-delimited fields get their length written after the fact */
class Writer {
  buf: Buffer = Buffer.allocUnsafe(64 * 1024);
  pos = 0;

  private grow(n: number): void {
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  ensure(n: number): void {
    if (this.pos + n > this.buf.length) this.grow(n);
  }

  tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  varint(value: number): void {
    this.ensure(10);
    const buf = this.buf;
    if (value >= 0 && value <= 0xffffffff) {
      let v = value >>> 0;
      while (v > 0x7f) {
        buf[this.pos++] = (v & 0x7f) | 0x80;
        v >>>= 7;
      }
      buf[this.pos++] = v;
      return;
    }
    // 64 bits as two halves; a negative number in two's complement (ten bytes)
    let low: number;
    let high: number;
    const abs = Math.abs(value);
    low = abs >>> 0;
    high = (abs / 0x100000000) >>> 0;
    if (value < 0) {
      low = ~low >>> 0;
      high = ~high >>> 0;
      low = (low + 1) >>> 0;
      if (low === 0) high = (high + 1) >>> 0;
    }
    while (high > 0 || low > 0x7f) {
      buf[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    buf[this.pos++] = low & 0x7f;
  }

  fixed32(v: number): void {
    this.ensure(4);
    this.buf.writeUInt32LE(v >>> 0, this.pos);
    this.pos += 4;
  }

  fixed64(low: number, high: number): void {
    this.ensure(8);
    this.buf.writeUInt32LE(low >>> 0, this.pos);
    this.buf.writeUInt32LE(high >>> 0, this.pos + 4);
    this.pos += 8;
  }

  double(v: number): void {
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  bytes(b: Uint8Array): void {
    this.varint(b.length);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  string(s: string): void {
    const n = s.length;
    if (n < 48) {
      // short strings (keys, names, ids): a loop beats a call into the encoder while they are ASCII
      let ascii = true;
      for (let i = 0; i < n; i++)
        if (s.charCodeAt(i) > 0x7f) {
          ascii = false;
          break;
        }
      if (ascii) {
        this.varint(n);
        this.ensure(n);
        const buf = this.buf;
        for (let i = 0; i < n; i++) buf[this.pos++] = s.charCodeAt(i);
        return;
      }
    }
    const size = Buffer.byteLength(s, 'utf8');
    this.varint(size);
    this.ensure(size);
    this.pos += this.buf.write(s, this.pos, size, 'utf8');
  }

  /** 16 or 8 bytes of a lower-case hex id, as a length-delimited field's value */
  hexId(hex: string): void {
    const n = hex.length >> 1;
    this.varint(n);
    this.ensure(n);
    const buf = this.buf;
    for (let i = 0; i < n; i++)
      buf[this.pos++] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  }

  /** one byte kept for a length; `end` writes it, moving the content when it takes more */
  start(): number {
    this.ensure(1);
    return this.pos++;
  }

  end(at: number): void {
    const length = this.pos - at - 1;
    let size = 1;
    for (let v = length >>> 7; v; v >>>= 7) size++;
    if (size > 1) {
      this.ensure(size - 1);
      this.buf.copy(this.buf, at + size, at + 1, this.pos);
      this.pos += size - 1;
    }
    let v = length;
    let p = at;
    while (v > 0x7f) {
      this.buf[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    this.buf[p] = v;
  }
}

function nibble(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  if (c >= 97 && c <= 102) return c - 87; // a-f
  return c - 55; // A-F
}

/** HrTime as nanoseconds in a fixed64 */
function hrTime(w: Writer, t: HrTime): void {
  nanoTime(w, t[0], t[1]);
}

/**
 * A span that keeps its times as epoch milliseconds (light-tracer.ts's): read as numbers, without
 * the HrTime arrays its `startTime` and `endTime` would make. Undefined when given as HrTime.
 */
interface EpochTimes {
  readonly startEpochMs?: number;
  readonly endEpochMs?: number;
}

/** epoch milliseconds as [seconds, nanoseconds] would be written (the HrTime the SDK makes of them) */
function msTime(w: Writer, epochMs: number): void {
  let seconds = Math.floor(epochMs / 1000);
  let nanos = Math.round((epochMs - seconds * 1000) * 1e6);
  if (nanos >= 1e9) {
    seconds += 1;
    nanos -= 1e9;
  }
  nanoTime(w, seconds, nanos);
}

/** seconds and nanoseconds as nanoseconds in a fixed64, exact beyond 2^53 (the two halves summed with carry) */
function nanoTime(w: Writer, seconds: number, nanos: number): void {
  const lowSeconds = (seconds & 0xffff) * 1e9;
  const highSeconds = ((seconds / 0x10000) >>> 0) * 1e9;
  const low = (lowSeconds >>> 0) + ((((highSeconds & 0xffff) * 0x10000) >>> 0) + nanos);
  const high =
    Math.floor(lowSeconds / 0x100000000) + ((highSeconds / 0x10000) >>> 0) + Math.floor(low / 0x100000000);
  w.fixed64(low >>> 0, high >>> 0);
}

function anyValue(w: Writer, value: unknown): void {
  switch (typeof value) {
    case 'string':
      w.tag(1, LEN);
      w.string(value);
      return;
    case 'boolean':
      w.tag(2, VARINT);
      w.varint(value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= MIN_INT64 && value < MAX_INT64) {
        w.tag(3, VARINT);
        w.varint(value);
      } else {
        w.tag(4, FIXED64);
        w.double(value);
      }
      return;
  }
  if (value instanceof Uint8Array) {
    w.tag(7, LEN);
    w.bytes(value);
  } else if (Array.isArray(value)) {
    w.tag(5, LEN);
    const list = w.start();
    for (const item of value) {
      w.tag(1, LEN);
      const at = w.start();
      anyValue(w, item);
      w.end(at);
    }
    w.end(list);
  } else if (typeof value === 'object' && value !== null) {
    // a KeyValueList: its values (field 1) are laid out as attributes are
    w.tag(6, LEN);
    const list = w.start();
    attributes(w, value as Attributes, 1);
    w.end(list);
  }
  // anything else is written as an empty value, as upstream does
}

function attributes(w: Writer, attrs: Attributes, field: number): void {
  for (const key in attrs) {
    if (!Object.prototype.hasOwnProperty.call(attrs, key)) continue;
    w.tag(field, LEN);
    const kv = w.start();
    w.tag(1, LEN);
    w.string(key);
    w.tag(2, LEN);
    const at = w.start();
    anyValue(w, attrs[key] as AttributeValue | undefined);
    w.end(at);
    w.end(kv);
  }
}

function spanFlags(ctx: SpanContext, isRemote: boolean | undefined): number {
  return (ctx.traceFlags & 0xff) | HAS_IS_REMOTE | (isRemote ? IS_REMOTE : 0);
}

function span(w: Writer, s: ReadableSpan): void {
  const at = w.start();
  const ctx = s.spanContext();
  w.tag(1, LEN);
  w.hexId(ctx.traceId);
  w.tag(2, LEN);
  w.hexId(ctx.spanId);
  const traceState = ctx.traceState?.serialize();
  if (traceState) {
    w.tag(3, LEN);
    w.string(traceState);
  }
  if (s.parentSpanContext?.spanId) {
    w.tag(4, LEN);
    w.hexId(s.parentSpanContext.spanId);
  }
  w.tag(5, LEN);
  w.string(s.name);
  const kind = s.kind == null ? 0 : s.kind + 1;
  if (kind !== 0) {
    w.tag(6, VARINT);
    w.varint(kind);
  }
  const { startEpochMs, endEpochMs } = s as ReadableSpan & EpochTimes;
  w.tag(7, FIXED64);
  if (startEpochMs !== undefined) msTime(w, startEpochMs);
  else hrTime(w, s.startTime);
  w.tag(8, FIXED64);
  if (endEpochMs !== undefined) msTime(w, endEpochMs);
  else hrTime(w, s.endTime);
  if (s.attributes) attributes(w, s.attributes, 9);
  w.tag(10, VARINT);
  w.varint(s.droppedAttributesCount);
  for (const e of s.events) {
    w.tag(11, LEN);
    const ev = w.start();
    w.tag(1, FIXED64);
    hrTime(w, e.time);
    w.tag(2, LEN);
    w.string(e.name);
    if (e.attributes) attributes(w, e.attributes, 3);
    w.tag(4, VARINT);
    w.varint(e.droppedAttributesCount || 0);
    w.end(ev);
  }
  w.tag(12, VARINT);
  w.varint(s.droppedEventsCount);
  for (const l of s.links) {
    w.tag(13, LEN);
    const link = w.start();
    w.tag(1, LEN);
    w.hexId(l.context.traceId);
    w.tag(2, LEN);
    w.hexId(l.context.spanId);
    const linkState = l.context.traceState?.serialize();
    if (linkState) {
      w.tag(3, LEN);
      w.string(linkState);
    }
    if (l.attributes) attributes(w, l.attributes, 4);
    w.tag(5, VARINT);
    w.varint(l.droppedAttributesCount || 0);
    w.tag(6, FIXED32);
    w.fixed32(spanFlags(l.context, l.context.isRemote));
    w.end(link);
  }
  w.tag(14, VARINT);
  w.varint(s.droppedLinksCount);
  w.tag(15, LEN);
  const status = w.start();
  if (s.status.message) {
    w.tag(2, LEN);
    w.string(s.status.message);
  }
  w.tag(3, VARINT);
  w.varint(s.status.code);
  w.end(status);
  w.tag(16, FIXED32);
  w.fixed32(spanFlags(ctx, s.parentSpanContext?.isRemote));
  w.end(at);
}

type Resource = ReadableSpan['resource'];
type Scope = ReadableSpan['instrumentationScope'];

function scopeSpans(w: Writer, scope: Scope, spans: ReadableSpan[]): void {
  const at = w.start();
  w.tag(1, LEN);
  const sc = w.start();
  w.tag(1, LEN);
  w.string(scope.name);
  if (scope.version) {
    w.tag(2, LEN);
    w.string(scope.version);
  }
  const extra = scope as { attributes?: Attributes; droppedAttributesCount?: number };
  if (extra.attributes) attributes(w, extra.attributes, 3);
  if (extra.droppedAttributesCount) {
    w.tag(4, VARINT);
    w.varint(extra.droppedAttributesCount);
  }
  w.end(sc);
  for (const s of spans) {
    w.tag(2, LEN);
    span(w, s);
  }
  if (scope.schemaUrl) {
    w.tag(3, LEN);
    w.string(scope.schemaUrl);
  }
  w.end(at);
}

function resourceSpans(w: Writer, resource: Resource, scopes: Map<Scope, ReadableSpan[]>): void {
  const at = w.start();
  w.tag(1, LEN);
  const res = w.start();
  if (resource.attributes) attributes(w, resource.attributes, 1);
  w.tag(2, VARINT);
  w.varint(0);
  w.end(res);
  for (const spans of scopes.values()) {
    w.tag(2, LEN);
    scopeSpans(w, spans[0]!.instrumentationScope, spans);
  }
  if (resource.schemaUrl) {
    w.tag(3, LEN);
    w.string(resource.schemaUrl);
  }
  w.end(at);
}

/** spans grouped by resource, then by instrumentation scope (by identity, in order of appearance) */
function group(spans: ReadableSpan[]): Map<Resource, Map<Scope, ReadableSpan[]>> {
  const out = new Map<Resource, Map<Scope, ReadableSpan[]>>();
  for (const s of spans) {
    let scopes = out.get(s.resource);
    if (!scopes) out.set(s.resource, (scopes = new Map()));
    let list = scopes.get(s.instrumentationScope);
    if (!list) scopes.set(s.instrumentationScope, (list = []));
    list.push(s);
  }
  return out;
}

/**
 * An `ExportTraceServiceRequest` of these spans. The writer's buffer is kept between calls (one
 * export encodes at a time); the answer is a copy the transport may hold while it retries.
 */
export function createTraceRequestEncoder(): (spans: ReadableSpan[]) => Uint8Array {
  const w = new Writer();
  return (spans) => {
    w.pos = 0;
    for (const [resource, scopes] of group(spans)) {
      w.tag(1, LEN);
      resourceSpans(w, resource, scopes);
    }
    return new Uint8Array(w.buf.subarray(0, w.pos));
  };
}

/**
 * The OTLP/HTTP protobuf trace exporter of `@opentelemetry/exporter-trace-otlp-proto`, built from
 * the same parts (its transport, retries, timeout, headers and self-observability), with the
 * encoder above in place of the upstream serializer.
 */
export class FastOtlpTraceExporter extends OTLPExporterBase<ReadableSpan[]> implements SpanExporter {
  constructor(config: OTLPExporterNodeConfigBase = {}) {
    const encode = createTraceRequestEncoder();
    super(
      createOtlpHttpExportDelegate(
        convertLegacyHttpOptions(config, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' }),
        {
          serializeRequest: encode,
          deserializeResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
        },
        'otlp_http_span_exporter',
        TraceExporterMetricsHelper,
        undefined,
      ),
    );
  }
}
