/** What a stopping process is still working on. */
export interface StopWork {
  /** kinds of the runs this process started and that have not ended (scrape, metrics, reports) */
  runs: string[];
  /** queued jobs being worked on now, per queue */
  jobs: { queue: string; jobs: number }[];
  /** how long a run's reads and the running jobs get to finish (then abandoned, handed back) */
  graceSeconds: number;
  /** the hard limit, after which the process exits whatever is left */
  limitSeconds: number;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The one line a SIGINT/SIGTERM writes: what the process waits for and how long at most, so that a
 * Ctrl-C during a job is not followed by half a minute of silence.
 */
export function shutdownLine(signal: string, w: StopWork): string {
  const waits: string[] = [];
  if (w.runs.length) waits.push(`the ${w.runs.join(', ')} run${w.runs.length === 1 ? '' : 's'}`);
  const total = w.jobs.reduce((n, q) => n + q.jobs, 0);
  if (total) waits.push(`${plural(total, 'job')} (${w.jobs.map((q) => `${q.queue} ${q.jobs}`).join(', ')})`);
  const again = signal === 'SIGINT' ? '; Ctrl-C again stops at once' : '';
  if (!waits.length)
    return `${signal}: stopping; nothing is running, closing the stores (at most ${w.limitSeconds} s)${again}`;
  return (
    `${signal}: stopping; waiting up to ${w.graceSeconds} s for ${waits.join(' and ')} to end ` +
    `(unfinished jobs go back to the queue), at most ${w.limitSeconds} s in all${again}`
  );
}
