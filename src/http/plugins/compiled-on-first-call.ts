/**
 * Route schemas compiled on their first request instead of at start-up. Ajv and fast-json-stringify
 * each write JavaScript source for every schema and keep it alive with the function; an app compiled
 * every route's request and response schemas before it listened, though most routes of an idle or a
 * young service are never called (~110 routes: ~0.4 s of CPU at each start and ~1.4 MB of generated
 * source held for good). A schema that does not compile would then fail only its first request, so
 * `compileAllPending` compiles every one still waiting: the tests call it on the whole app.
 */
type Compiled = ((data: never) => unknown) & { errors?: unknown };

const pending = new Set<() => void>();

/**
 * A function that compiles `compile()` on its first call and then runs what it made; the compiled
 * function's `errors` (Ajv reports them there, and Fastify reads them from the function it was
 * given) are copied onto the wrapper after every call.
 */
export function compiledOnFirstCall<F extends Compiled>(compile: () => F): F {
  let made: F | undefined;
  const make = (): F => {
    // out of the waiting set at the first attempt: a schema that fails is reported once by
    // compileAllPending, and fails every call of its route (compiled again each time) after that
    pending.delete(make);
    return (made ??= compile());
  };
  pending.add(make);
  const run = ((data: never) => {
    const fn = made ?? make();
    const result = fn(data);
    if ('errors' in fn) run.errors = fn.errors;
    return result;
  }) as F;
  return run;
}

/**
 * Compiles every schema whose first call has not come yet and returns how many; throws the first
 * compile error (that schema is then no longer waiting).
 */
export function compileAllPending(): number {
  const waiting = [...pending];
  for (const make of waiting) make();
  return waiting.length;
}
