import { readdirSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** the name Linux shows for V8's platform threads (`/proc/<pid>/task/<tid>/comm`) */
const V8_HELPER = 'V8Worker';

/**
 * Runs V8's helper threads at `nice` (Linux; elsewhere nothing happens). These threads are the
 * process's, shared by every isolate in it: the parallel and concurrent garbage collection and the
 * background compilation of the worker threads run on them as well as the main thread's. A niced
 * parse worker (FunctionPool `nice`) still had its collector's helpers at the process's priority,
 * and on two cores they took the core from the event loop: while a worker parsed a 5 MB feed, an
 * otherwise idle loop saw 10–11 ms gaps every 0.6 s, 4–5 ms with the helpers niced too
 * (docs/performance.md, session 16). The main thread's own collections lose little: it does its
 * share of each pause itself, and its concurrent marking and compilation run on idle cycles.
 *
 * A helper already at a higher nice value keeps it. Answers how many threads it set.
 */
export function niceV8HelperThreads(nice: number): number {
  if (process.platform !== 'linux') return 0;
  let set = 0;
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  for (const task of tasks) {
    try {
      if (readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() !== V8_HELPER) continue;
      const tid = Number(task);
      if (getPriority(tid) >= nice) continue;
      setPriority(tid, nice);
      set++;
    } catch {
      // a thread that ended meanwhile, or a priority the process may not set: left as it is
    }
  }
  return set;
}
