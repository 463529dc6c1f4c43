/**
 * The tracer of the service's own spans (docs/decisions/0164-light-tracer.md). Its spans are what
 * the OpenTelemetry SDK's tracer makes for the same calls (parents, attributes, events, links,
 * status, limits; random ids, times from the performance clock), as objects the span processor and
 * the OTLP exporter read as they read the SDK's, without the SDK's per-span work the service has no
 * use for: a sampler (every span is kept), attributes checked three times (at start, after sampling,
 * then one by one in the span), span-count metrics, a parent made here checked again by regular
 * expression, ids drawn from Math.random a byte at a time. For an article's six spans that was about
 * a third of what making and exporting them cost (`pipeline.tracing_overhead`).
 */
import { randomFillSync } from 'node:crypto';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  context as contextApi,
  diag,
  trace,
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
} from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';

/** the SDK's defaults (SpanLimits): at most this many attributes, events and links a span */
const ATTRIBUTE_COUNT_LIMIT = 128;
const EVENT_COUNT_LIMIT = 128;
const LINK_COUNT_LIMIT = 128;

/**
 * Random span and trace ids, hex, from a pool of random bytes filled 4 KB at a time (the SDK draws
 * them with Math.random a byte at a time). An all-zero id is invalid in OpenTelemetry: drawn again.
 */
class IdPool {
  private readonly pool = Buffer.allocUnsafe(4096);
  private at = this.pool.length;

  private next(bytes: number): string {
    for (;;) {
      if (this.at + bytes > this.pool.length) {
        randomFillSync(this.pool);
        this.at = 0;
      }
      const start = this.at;
      this.at += bytes;
      for (let i = start; i < this.at; i++)
        if (this.pool[i] !== 0) return this.pool.toString('hex', start, this.at);
    }
  }

  spanId(): string {
    return this.next(8);
  }

  traceId(): string {
    return this.next(16);
  }
}

/** as @opentelemetry/core's isAttributeValue: a primitive, a homogeneous array of one (nulls allowed), or null */
function isAttributeValue(v: unknown): v is AttributeValue | null | undefined {
  if (v == null) return true;
  const t = typeof v;
  if (t === 'string' || t === 'number' || t === 'boolean') return true;
  if (!Array.isArray(v)) return false;
  let kind: string | undefined;
  for (const e of v) {
    if (e == null) continue;
    const et = typeof e;
    if (et !== 'string' && et !== 'number' && et !== 'boolean') return false;
    if (kind === undefined) kind = et;
    else if (kind !== et) return false;
  }
  return true;
}

/** as @opentelemetry/core's sanitizeAttributes: valid keys and values kept (nulls too), arrays copied */
function sanitize(attributes: Attributes | undefined): Attributes {
  const out: Attributes = {};
  if (!attributes) return out;
  for (const key in attributes) {
    if (!Object.prototype.hasOwnProperty.call(attributes, key) || key.length === 0) continue;
    const v = attributes[key];
    if (!isAttributeValue(v)) continue;
    out[key] = Array.isArray(v) ? v.slice() : v;
  }
  return out;
}

/** a time as the SDK takes it: an HrTime as given, else epoch milliseconds (made into HrTime when read) */
function timeOf(t: TimeInput | undefined): HrTime | number {
  if (Array.isArray(t)) return t as HrTime;
  if (t === undefined) return performance.timeOrigin + performance.now();
  if (typeof t !== 'number') return t.getTime();
  // a number below the process's start is taken as performance.now()-based, as the SDK does
  return t < performance.timeOrigin ? performance.timeOrigin + t : t;
}

/** epoch milliseconds as [seconds, nanoseconds] */
function hrTimeOfMs(epochMs: number): HrTime {
  const s = Math.floor(epochMs / 1000);
  const ns = Math.round((epochMs - s * 1000) * 1e6);
  return ns >= 1e9 ? [s + 1, ns - 1e9] : [s, ns];
}

const asHrTime = (t: HrTime | number): HrTime => (typeof t === 'number' ? hrTimeOfMs(t) : t);

function durationOf(start: HrTime, end: HrTime): HrTime {
  let s = end[0] - start[0];
  let ns = end[1] - start[1];
  if (ns < 0) {
    s -= 1;
    ns += 1e9;
  }
  return [s, ns];
}

/**
 * What a span holds until it is given more: shared, never written (a span gets arrays and a status
 * of its own when it is), so that the spans of an article, most with no link, event or status, do
 * not each allocate them
 */
const NO_LINKS: Link[] = Object.freeze([]) as unknown as Link[];
const NO_EVENTS: TimedEvent[] = Object.freeze([]) as unknown as TimedEvent[];
const ZERO_TIME: HrTime = Object.freeze([0, 0]) as unknown as HrTime;
const UNSET_STATUS: SpanStatus = Object.freeze({ code: SpanStatusCode.UNSET });
const NO_ATTRIBUTES: Attributes = Object.freeze({}) as Attributes;

class LightSpan implements Span, ReadableSpan {
  readonly kind: SpanKind;
  attributes: Attributes = NO_ATTRIBUTES;
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  /**
   * The start and end as given: epoch milliseconds (what the span wrappers give) or an HrTime.
   * The arrays the SDK's spans carry are made only when read (`startTime`, `endTime`,
   * `duration`); the OTLP encoder reads the numbers (otlp-trace-serializer.ts, `EpochTimes`).
   * Three arrays fewer a span: an article makes six spans, each held until its batch is sent.
   */
  private readonly start: HrTime | number;
  private finish: HrTime | number = 0;
  status: SpanStatus = UNSET_STATUS;
  ended = false;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  private attributeCount = 0;
  droppedLinksCount = 0;

  constructor(
    public name: string,
    private readonly ctx: SpanContext,
    readonly parentSpanContext: SpanContext | undefined,
    kind: SpanKind | undefined,
    startTime: TimeInput | undefined,
    attributes: Attributes | undefined,
    links: Link[] | undefined,
    readonly resource: Resource,
    readonly instrumentationScope: InstrumentationScope,
    private readonly processor: SpanProcessor,
  ) {
    this.kind = kind ?? SpanKind.INTERNAL;
    this.start = timeOf(startTime);
    if (attributes) this.setAttributes(sanitize(attributes));
    if (links) this.addLinks(links);
  }

  spanContext(): SpanContext {
    return this.ctx;
  }

  get startTime(): HrTime {
    return asHrTime(this.start);
  }

  get endTime(): HrTime {
    return this.ended ? asHrTime(this.finish) : ZERO_TIME;
  }

  get duration(): HrTime {
    return this.ended ? durationOf(this.startTime, this.endTime) : ZERO_TIME;
  }

  /** the start in epoch milliseconds, unless it was given as an HrTime */
  get startEpochMs(): number | undefined {
    return typeof this.start === 'number' ? this.start : undefined;
  }

  /** the end in epoch milliseconds, unless it was given as an HrTime (or the span is not ended) */
  get endEpochMs(): number | undefined {
    return this.ended && typeof this.finish === 'number' ? this.finish : undefined;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (this.ended || value == null || key.length === 0 || !isAttributeValue(value)) return this;
    if (!Object.prototype.hasOwnProperty.call(this.attributes, key)) {
      if (this.attributeCount >= ATTRIBUTE_COUNT_LIMIT) {
        this.droppedAttributesCount++;
        return this;
      }
      this.attributeCount++;
    }
    if (this.attributes === NO_ATTRIBUTES) this.attributes = {};
    this.attributes[key] = value;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes)
      if (Object.prototype.hasOwnProperty.call(attributes, key)) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    if (this.events === NO_EVENTS) this.events = [];
    if (this.events.length >= EVENT_COUNT_LIMIT) {
      // the SDK keeps the newest events
      this.events.shift();
      this.droppedEventsCount++;
    }
    const isTime =
      Array.isArray(attributesOrTime) ||
      typeof attributesOrTime === 'number' ||
      attributesOrTime instanceof Date;
    this.events.push({
      name,
      attributes: sanitize(isTime ? undefined : (attributesOrTime as Attributes | undefined)),
      time: asHrTime(timeOf(isTime ? (attributesOrTime as TimeInput) : time)),
      droppedAttributesCount: 0,
    });
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links === NO_LINKS) this.links = [];
    if (this.links.length >= LINK_COUNT_LIMIT) {
      // the SDK keeps the newest links
      this.links.shift();
      this.droppedLinksCount++;
    }
    const sanitized = sanitize(link.attributes);
    const attributes: Attributes = {};
    let kept = 0;
    let dropped = 0;
    for (const key in sanitized) {
      if (kept >= ATTRIBUTE_COUNT_LIMIT) dropped++;
      else {
        attributes[key] = sanitized[key];
        kept++;
      }
    }
    this.links.push({
      context: link.context,
      ...(kept > 0 ? { attributes } : {}),
      ...(dropped > 0 ? { droppedAttributesCount: dropped } : {}),
    });
    return this;
  }

  addLinks(links: Link[]): this {
    for (const l of links) this.addLink(l);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK)
      return this;
    this.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string'
        ? { code: status.code, message: status.message }
        : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) {
      diag.error(
        `${this.name} ${this.ctx.traceId}-${this.ctx.spanId} - You can only call end() on a span once.`,
      );
      return;
    }
    this.ended = true;
    const end = timeOf(endTime);
    // an end before the start is taken as the start (a duration of zero), as the SDK does
    const before =
      typeof end === 'number' && typeof this.start === 'number'
        ? end < this.start
        : durationOf(asHrTime(this.start), asHrTime(end))[0] < 0;
    this.finish = before
      ? typeof this.start === 'number'
        ? this.start
        : [this.start[0], this.start[1]]
      : end;
    this.processor.onEnd(this);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      if (exception.code) attributes['exception.type'] = exception.code.toString();
      else if (exception.name) attributes['exception.type'] = exception.name;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] || attributes['exception.message'])
      this.addEvent('exception', attributes, time);
  }
}

/** the context of a span this tracer made: its ids need no second look when it is a parent */
class MadeSpanContext implements SpanContext {
  readonly traceFlags = TraceFlags.SAMPLED;
  constructor(
    readonly traceId: string,
    readonly spanId: string,
    readonly traceState: SpanContext['traceState'],
  ) {}
}

function validParent(ctx: SpanContext | undefined): ctx is SpanContext {
  return !!ctx && (ctx instanceof MadeSpanContext || trace.isSpanContextValid(ctx));
}

export class LightTracer implements Tracer {
  private readonly ids = new IdPool();
  /** the last remote parent found valid: an article's span has its run's, many times over */
  private validRemote: SpanContext | undefined;

  constructor(
    private readonly resource: Resource,
    private readonly scope: InstrumentationScope,
    private readonly processor: SpanProcessor,
  ) {}

  /** a parent's ids are valid; a remote one found so is remembered */
  private checkParent(parent: SpanContext): boolean {
    if (!validParent(parent)) return false;
    if (!(parent instanceof MadeSpanContext)) this.validRemote = parent;
    return true;
  }

  startSpan(name: string, options: SpanOptions = {}, context: Context = contextApi.active()): Span {
    const parent = options.root ? undefined : trace.getSpanContext(context);
    const child = parent !== undefined && (parent === this.validRemote || this.checkParent(parent));
    const spanContext = new MadeSpanContext(
      child ? parent.traceId : this.ids.traceId(),
      this.ids.spanId(),
      child ? parent.traceState : undefined,
    );
    const span = new LightSpan(
      name,
      spanContext,
      child ? parent : undefined,
      options.kind,
      options.startTime,
      options.attributes,
      options.links,
      this.resource,
      this.scope,
      this.processor,
    );
    // the SDK's processors are typed for its own Span class; they read what ReadableSpan has
    this.processor.onStart(span as never, options.root ? ROOT_CONTEXT : context);
    return span;
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(name: string, opts: SpanOptions, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    opts: SpanOptions,
    ctx: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    a?: SpanOptions | F,
    b?: Context | F,
    c?: F,
  ): ReturnType<F> {
    const fn = (c ?? (typeof b === 'function' ? b : a)) as F;
    const opts = typeof a === 'object' ? a : {};
    const parent = typeof b === 'object' ? b : contextApi.active();
    const span = this.startSpan(name, opts, parent);
    return contextApi.with(trace.setSpan(parent, span), () => fn(span) as ReturnType<F>);
  }
}
