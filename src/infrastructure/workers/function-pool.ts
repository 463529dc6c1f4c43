import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';
import { niceV8HelperThreads } from './helper-threads.js';

/**
 * A small pool of worker threads that run the exported synchronous functions of one module, so
 * that CPU-bound work on outside input (a feed, a page, an embedding) never holds the event loop.
 * Functions cannot cross threads: a call names the export and passes structured-clone-safe
 * arguments, and gets a structured clone of the result (Dates survive; class instances become
 * plain objects; functions refuse to cross and fail the call).
 *
 * Bounded time and memory: a call running past `timeLimitMs` terminates its worker (a replacement
 * starts with the next call) and rejects with FunctionPoolError `timeout`; a worker that dies (an
 * exception outside a call, `process.exit`, its heap limit) rejects only the call it was running
 * (`crashed`); at most `maxQueue` calls wait for a worker, the next one is refused at once
 * (`busy`). No worker starts before the first call, and a worker without work for `idleMs` stops
 * (the memory of the idle process).
 */
export interface FunctionPoolOptions {
  /** the module whose exported functions the workers run (a .ts source under tsx, .js built) */
  moduleUrl: string | URL;
  /** what the errors call the pool, e.g. "feed parser" */
  name?: string;
  /** worker threads at most; default min(2, available parallelism) */
  threads?: number;
  /** a call's time limit once a worker runs it; default none */
  timeLimitMs?: number;
  /** how long a worker may take to load the module; default 60 s */
  startTimeoutMs?: number;
  /** a worker stops after this long without work; default 60 s */
  idleMs?: number;
  /** calls waiting for a free worker at most; default 1,000 */
  maxQueue?: number;
  /** each worker's heap limits (an input that blows the heap up kills its worker only) */
  resourceLimits?: ResourceLimits;
  /**
   * the workers' nice value (0-19): with more runnable threads than cores, the kernel gives the
   * event loop's thread the core first. Linux sets it per thread, so the main thread keeps its own;
   * where it cannot be set, the workers run as they would without it. V8's helper threads, which
   * collect the workers' garbage too, are set to it when the first worker starts
   * (helper-threads.ts)
   */
  nice?: number;
}

export type FunctionPoolProblem = 'timeout' | 'crashed' | 'busy' | 'closed' | 'start_failed';

/** The pool, not the function, failed the call. */
export class FunctionPoolError extends Error {
  constructor(
    message: string,
    readonly reason: FunctionPoolProblem,
  ) {
    super(message);
    this.name = 'FunctionPoolError';
  }
}

/**
 * The worker's code: imports the module once, then answers `{id, fn, args}` with `{id, result}` or
 * `{id, error}`. Inline (eval) so that it needs no loader; when the module is a .ts source (dev,
 * tests), tsx's loader is registered first. An error crosses as its name, message and own
 * primitive fields (`problem`, `line`, `status`...), which say what went wrong.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const errorOf = (err) => {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err), fields: {} };
  const fields = {};
  for (const [k, v] of Object.entries(err))
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) fields[k] = v;
  return { name: err.name, message: err.message, fields };
};
(async () => {
  if (workerData.nice) {
    try {
      require('node:os').setPriority(workerData.nice);
    } catch {}
  }
  if (workerData.tsxApi) (await import(workerData.tsxApi)).register();
  const mod = await import(workerData.moduleUrl);
  parentPort.on('message', (msg) => {
    try {
      const fn = mod[msg.fn];
      if (typeof fn !== 'function') throw new Error(workerData.moduleUrl + ' has no function ' + msg.fn);
      parentPort.postMessage({ id: msg.id, result: fn(...msg.args) });
    } catch (err) {
      parentPort.postMessage({ id: msg.id, error: errorOf(err) });
    }
  });
  parentPort.postMessage({ ready: true });
})();
`;

interface Call {
  id: number;
  fn: string;
  args: unknown[];
  /** buffers of the arguments moved to the worker, not copied (detached here once sent) */
  transfer: Transferable[];
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy: Call | null;
  /** the start-up limit, then the idle stop */
  timer: NodeJS.Timeout | null;
  gone: boolean;
}

type Reply =
  | { ready: true }
  | { id: number; result?: unknown; error?: { name: string; message: string; fields: object } };

let tsxApiUrl: string | undefined;
/** tsx's ESM API, which a worker registers before importing a .ts module */
function tsxApi(): string {
  // require.resolve finds the CommonJS entry; the worker needs the ESM one beside it
  tsxApiUrl ??= pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  return tsxApiUrl;
}

export class FunctionPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Call[] = [];
  private nextId = 0;
  private closed = false;
  private readonly name: string;
  private readonly threads: number;

  constructor(private readonly opts: FunctionPoolOptions) {
    this.name = opts.name ?? 'worker pool';
    this.threads = Math.max(1, opts.threads ?? Math.min(2, availableParallelism()));
  }

  /** ids of the running worker threads (tests check the work ran outside the main thread) */
  get threadIds(): number[] {
    return this.slots.filter((s) => !s.gone).map((s) => s.worker.threadId);
  }

  /**
   * runs `fn(...args)` of the module in a worker thread; the buffers in `transfer` move to the
   * worker instead of being copied, and are unusable here once the call is sent
   */
  run<T>(fn: string, args: unknown[], transfer: Transferable[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new FunctionPoolError(`${this.name} is closed`, 'closed'));
    if (this.queue.length >= (this.opts.maxQueue ?? 1000))
      return Promise.reject(
        new FunctionPoolError(`${this.name} is busy (${this.queue.length} calls waiting)`, 'busy'),
      );
    return new Promise<T>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        fn,
        args,
        transfer,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  /** stops every worker; calls running or waiting reject */
  async close(): Promise<void> {
    this.closed = true;
    const closedError = () => new FunctionPoolError(`${this.name} is closed`, 'closed');
    for (const c of this.queue.splice(0)) c.reject(closedError());
    await Promise.all(this.slots.slice().map((s) => this.retire(s, closedError())));
  }

  /** gives waiting calls to free workers, and starts workers while calls wait for one */
  private pump() {
    if (this.closed) return;
    for (const slot of this.slots)
      while (this.queue.length && slot.ready && !slot.busy && !slot.gone)
        this.dispatch(slot, this.queue.shift()!);
    if (!this.queue.length) return;
    const starting = this.slots.filter((s) => !s.ready).length;
    let wanted = Math.min(this.queue.length - starting, this.threads - this.slots.length);
    while (wanted-- > 0) this.start();
  }

  private dispatch(slot: Slot, call: Call) {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.busy = call;
    // a running call keeps the process alive; an idle worker does not
    slot.worker.ref();
    const limit = this.opts.timeLimitMs;
    if (limit !== undefined)
      call.timer = setTimeout(() => {
        if (slot.busy !== call) return;
        void this.retire(
          slot,
          new FunctionPoolError(
            `${this.name}: ${call.fn} ran longer than ${limit} ms and was stopped`,
            'timeout',
          ),
        );
      }, limit);
    try {
      slot.worker.postMessage({ id: call.id, fn: call.fn, args: call.args }, call.transfer);
    } catch (err) {
      // arguments that cannot be cloned (a function, a class with private state): the worker is free
      clearTimeout(call.timer);
      slot.busy = null;
      slot.worker.unref();
      call.reject(err as Error);
      this.scheduleIdleStop(slot);
    }
  }

  private start() {
    if (this.opts.nice) niceV8HelperThreads(this.opts.nice);
    const moduleUrl = String(this.opts.moduleUrl);
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        moduleUrl,
        tsxApi: moduleUrl.endsWith('.ts') ? tsxApi() : undefined,
        nice: this.opts.nice ?? 0,
      },
      resourceLimits: this.opts.resourceLimits,
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, busy: null, timer: null, gone: false };
    this.slots.push(slot);
    const startMs = this.opts.startTimeoutMs ?? 60_000;
    slot.timer = setTimeout(
      () => this.failStart(slot, new Error(`the worker did not start within ${startMs} ms`)),
      startMs,
    );
    slot.timer.unref();
    worker.on('message', (msg: Reply) => this.onMessage(slot, msg));
    worker.on('error', (err) =>
      slot.ready
        ? void this.retire(
            slot,
            new FunctionPoolError(`${this.name}: the worker failed: ${err.message}`, 'crashed'),
          )
        : this.failStart(slot, err),
    );
    worker.on('exit', (code) =>
      slot.ready
        ? void this.retire(
            slot,
            new FunctionPoolError(`${this.name}: the worker exited with code ${code}`, 'crashed'),
          )
        : this.failStart(slot, new Error(`the worker exited with code ${code}`)),
    );
  }

  /** a worker that cannot load the module: the calls waiting would wait for nothing */
  private failStart(slot: Slot, err: Error) {
    if (slot.gone) return;
    const e = new FunctionPoolError(`${this.name}: a worker did not start: ${err.message}`, 'start_failed');
    for (const c of this.queue.splice(0)) c.reject(e);
    void this.retire(slot, err);
  }

  private onMessage(slot: Slot, msg: Reply) {
    if (slot.gone) return;
    if ('ready' in msg) {
      slot.ready = true;
      if (slot.timer) clearTimeout(slot.timer);
      slot.timer = null;
      this.scheduleIdleStop(slot);
      return this.pump();
    }
    const call = slot.busy;
    if (!call || call.id !== msg.id) return;
    clearTimeout(call.timer);
    slot.busy = null;
    slot.worker.unref();
    if (msg.error) {
      const err = new Error(msg.error.message);
      err.name = msg.error.name;
      call.reject(Object.assign(err, msg.error.fields));
    } else call.resolve(msg.result);
    this.scheduleIdleStop(slot);
    this.pump();
  }

  private scheduleIdleStop(slot: Slot) {
    if (slot.busy || slot.gone) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = setTimeout(() => {
      if (!slot.busy) void this.retire(slot, new FunctionPoolError(`${this.name}: idle`, 'closed'));
    }, this.opts.idleMs ?? 60_000);
    slot.timer.unref();
  }

  /** takes the worker out of the pool and stops it; its running call, if any, rejects with `err` */
  private async retire(slot: Slot, err: Error): Promise<void> {
    if (slot.gone) return;
    slot.gone = true;
    if (slot.timer) clearTimeout(slot.timer);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    const call = slot.busy;
    slot.busy = null;
    if (call) {
      clearTimeout(call.timer);
      call.reject(err);
    }
    // a replacement starts for the calls still waiting
    this.pump();
    await slot.worker.terminate();
  }
}
