import type { ErrorCode } from './error-codes.js';

export type { ErrorCode } from './error-codes.js';

/**
 * Typed application errors. The core throws these with a string code; only the HTTP layer maps
 * a kind to a status code (src/http/plugins/errors.ts).
 */
export type ErrorKind =
  | 'NotFound'
  | 'Conflict'
  | 'Invalid'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotConfigured'
  | 'Upstream'
  | 'RateLimited';

export interface ErrorDetail {
  path?: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    /** snake_case machine code from the one list (error-codes.ts), e.g. `tag_group_name_taken` */
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.status = options?.status;
  }
  /** optional explicit HTTP status for kinds that map to several (e.g. Upstream 502 vs 504) */
  readonly status: number | undefined;
}

export const notFound = (what: string, code: ErrorCode = 'not_found') =>
  new AppError('NotFound', code, `${what} not found`);
export const conflict = (message: string, code: ErrorCode = 'conflict') =>
  new AppError('Conflict', code, message);
export const invalid = (message: string, code: ErrorCode = 'invalid', details?: ErrorDetail[]) =>
  new AppError('Invalid', code, message, details);
export const unauthorized = (message = 'authentication required', code: ErrorCode = 'unauthorized') =>
  new AppError('Unauthorized', code, message);
export const forbidden = (message = 'not allowed', code: ErrorCode = 'forbidden') =>
  new AppError('Forbidden', code, message);
export const notConfigured = (message: string, code: ErrorCode = 'not_configured') =>
  new AppError('NotConfigured', code, message);

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** the message of a thrown value, whatever was thrown */
export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
