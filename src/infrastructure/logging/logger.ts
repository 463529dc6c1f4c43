import { pino, type Logger as Pino, type DestinationStream } from 'pino';
import { currentCorrelationId } from '../../application/shared/context.js';

export interface LoggerOptions {
  level: string;
  service: string;
  environment: string;
  /** defaults to stdout; pretty-printed when stdout is a TTY */
  destination?: DestinationStream;
  /** sees every written line too (OTLP log shipping attaches to it) */
  tap?: { write(line: string): void };
}

/** JSON lines with the correlation id of the current request or job on every line. */
export function createLogger(opts: LoggerOptions): Pino {
  const pretty = !opts.destination && process.stdout.isTTY && process.env.NODE_ENV !== 'test';
  const options = {
    level: opts.level,
    base: { service: opts.service, env: opts.environment },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    mixin() {
      const correlation_id = currentCorrelationId();
      return correlation_id ? { correlation_id } : {};
    },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.api_key', '*.apiKey'],
      censor: '[redacted]',
    },
    formatters: { level: (label: string) => ({ level: label }) },
    hooks: {
      streamWrite(line: string) {
        opts.tap?.write(line);
        return line;
      },
    },
  };
  if (opts.destination) return pino(options, opts.destination);
  if (pretty) return pino({ ...options, transport: { target: 'pino-pretty', options: { colorize: true } } });
  return pino(options);
}
