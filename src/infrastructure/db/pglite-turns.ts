import type { PGlite } from '@electric-sql/pglite';

/**
 * How long PGlite may run statements back to back before the event loop gets a turn.
 *
 * PGlite runs each statement synchronously on the service's event loop, and its statement queue
 * starts the next statement in the same turn as the one before ended (a promise chain). Measured:
 * ten queued `pg_sleep(0.03)` ran 370 ms without one timer or socket callback in between, so three
 * readers searching at once held `/health` and every other request for several statements. With a
 * turn before a statement once this much statement time has gone by, a request waits for at most
 * the statement under way (docs/decisions/0145-pglite-yields-between-statements.md).
 */
export const PGLITE_TURN_AFTER_MS = 4;

/**
 * Makes `client` give the event loop a turn (`setImmediate`: timers, sockets and their requests
 * run first) before a statement when PGlite has been running statements for `afterMs` since the
 * last turn. Short statements in a burst (a pipeline transaction) still run back to back. The
 * turn is taken inside PGlite's statement lock, right before the statement runs, so the statement
 * that follows a turn is the one that waited for it.
 */
export function yieldBetweenStatements(client: PGlite, afterMs = PGLITE_TURN_AFTER_MS): void {
  const runExclusive = client._runExclusiveQuery.bind(client);
  let turnAt = performance.now();
  client._runExclusiveQuery = <T>(fn: () => Promise<T>): Promise<T> =>
    runExclusive(async () => {
      if (performance.now() - turnAt >= afterMs) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        turnAt = performance.now();
      }
      return fn();
    });
}
