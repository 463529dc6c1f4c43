import { pino, type Logger as Pino, type DestinationStream } from 'pino';
import { currentCorrelationId } from '../../application/shared/context.js';
import { serializeError } from './error-serializer.js';
import { scrubLine } from './scrub.js';

export interface LoggerOptions {
  level: string;
  service: string;
  environment: string;
  /** defaults to stdout; pretty-printed when stdout is a TTY */
  destination?: DestinationStream;
  /** sees every written line too (OTLP log shipping attaches to it) */
  tap?: { write(line: string): void };
  /** configured secret values (API keys, tokens, passwords): replaced wherever they would appear */
  secrets?: readonly string[];
}

/** Header and field paths pino blanks before a line is built. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
  'password',
  'passwordHash',
  'password_hash',
  'api_key',
  'apiKey',
  'token',
  'access_token',
  '*.password',
  '*.passwordHash',
  '*.password_hash',
  '*.api_key',
  '*.apiKey',
  '*.token',
  '*.access_token',
];

/**
 * A terminal gets one readable line per event: the time, the level, the event name and the message,
 * then the other fields on the same line. The service and environment are the same on every line,
 * so they are left out there (JSON lines keep them for the log store).
 */
const PRETTY = {
  colorize: true,
  singleLine: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,service,env,event',
  messageFormat: '{if event}{event}{end}{if msg} {msg}{end}',
};

/**
 * JSON lines with the correlation id of the current request or job on every line. Secrets never
 * reach a line: header paths are redacted, errors are serialized without bind parameters, and every
 * line passes the credential scrubber before it is written (docs/decisions/0018-secret-free-logs.md).
 */
export function createLogger(opts: LoggerOptions): Pino {
  const pretty = !opts.destination && process.stdout.isTTY && process.env.NODE_ENV !== 'test';
  const secrets = (opts.secrets ?? []).filter((s) => s.length >= 6);
  const options = {
    level: opts.level,
    base: { service: opts.service, env: opts.environment },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    mixin() {
      const correlation_id = currentCorrelationId();
      return correlation_id ? { correlation_id } : {};
    },
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: { err: serializeError, error: serializeError },
    formatters: { level: (label: string) => ({ level: label }) },
    hooks: {
      streamWrite(line: string) {
        const clean = scrubLine(line, secrets);
        opts.tap?.write(clean);
        return clean;
      },
    },
  };
  if (opts.destination) return pino(options, opts.destination);
  if (pretty) return pino({ ...options, transport: { target: 'pino-pretty', options: PRETTY } });
  return pino(options);
}
