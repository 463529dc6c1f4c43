import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** The correlation id of the current request or job; every log line carries it. */
const storage = new AsyncLocalStorage<{ correlationId: string }>();

export const currentCorrelationId = (): string | undefined => storage.getStore()?.correlationId;

export function runWithCorrelation<T>(correlationId: string, fn: () => T): T {
  return storage.run({ correlationId }, fn);
}

/** For hooks that cannot wrap the rest of the request in a callback. */
export function enterCorrelation(correlationId: string): void {
  storage.enterWith({ correlationId });
}

export const newCorrelationId = (): string => randomUUID();
