import { SeverityNumber, type Logger as OtelLogger } from '@opentelemetry/api-logs';

const SEVERITY: Record<string, SeverityNumber> = {
  trace: SeverityNumber.TRACE,
  debug: SeverityNumber.DEBUG,
  info: SeverityNumber.INFO,
  warn: SeverityNumber.WARN,
  error: SeverityNumber.ERROR,
  fatal: SeverityNumber.FATAL,
};
const PINO_LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

type Attr = string | number | boolean;

/** Turns each pino JSON line into an OTLP log record; its fields become attributes. */
export class OtlpLogSink {
  constructor(private readonly logger: OtelLogger) {}

  write(line: string): void {
    let rec: Record<string, unknown>;
    try {
      rec = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    const level =
      typeof rec.level === 'number' ? (PINO_LEVELS[rec.level] ?? 'info') : String(rec.level ?? 'info');
    const attributes: Record<string, Attr> = {};
    for (const [k, v] of Object.entries(rec)) {
      if (k === 'time' || k === 'msg' || v === undefined || v === null) continue;
      attributes[k] = scalar(k, v);
    }
    attributes.level = level;
    const time =
      typeof rec.time === 'string' || typeof rec.time === 'number' ? new Date(rec.time) : new Date();
    this.logger.emit({
      timestamp: time,
      severityNumber: SEVERITY[level] ?? SeverityNumber.INFO,
      severityText: level,
      // the line itself is the body: the log store's JSON parser reads every field from it
      body: line.trimEnd(),
      attributes,
    });
  }
}

function scalar(key: string, v: unknown): Attr {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (key === 'err' && typeof v === 'object') {
    const e = v as { message?: unknown; type?: unknown };
    return `${String(e.type ?? 'Error')}: ${String(e.message ?? '')}`;
  }
  return JSON.stringify(v);
}
