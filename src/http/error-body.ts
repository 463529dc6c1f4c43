/**
 * The error body both roles answer (`{error: {code, message, correlation_id, details?}}`) and the
 * one ladder from an HTTP status to its code, for errors that carry only a status (Fastify's own
 * 4xx, the web role's parse errors). Typed application errors keep their own codes. Every code is
 * one of the service's list (src/domain/error-codes.ts).
 */
import type { ErrorCode } from '../domain/error-codes.js';

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    correlation_id: string;
    details?: { path?: string; message: string }[];
  };
}

export function errorBody(
  code: ErrorCode,
  message: string,
  correlationId: string,
  details?: { path?: string; message: string }[],
): ErrorBody {
  return { error: { code, message, correlation_id: correlationId, ...(details ? { details } : {}) } };
}

const CODE_OF_STATUS: Partial<Record<number, ErrorCode>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_error',
  429: 'rate_limited',
  503: 'service_unavailable',
};

/** The code of an error known only by its status: a 4xx by its name, else `bad_request`; 5xx `internal_error`. */
export function codeForStatus(status: number): ErrorCode {
  if (status >= 500) return CODE_OF_STATUS[status] ?? 'internal_error';
  return CODE_OF_STATUS[status] ?? 'bad_request';
}
