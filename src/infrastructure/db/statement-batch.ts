/**
 * Calls of one kind from concurrent pipeline flows, sent as one statement: the calls made during a
 * turn of the event loop, or while the previous statement of this kind is in flight, go out
 * together (at most `max` at a time). Each caller gets its own answer. When the joint statement
 * fails, each call is replayed alone, so a bad call fails with its own error and the others pass,
 * as if each had been sent by itself. Only for statements whose joint form changes nothing a
 * failure would have to undo (a read, or a write that is all or nothing).
 */
export class StatementBatch<I, O> {
  private queue: { item: I; resolve(out: O): void; reject(err: unknown): void }[] = [];
  private draining = false;

  constructor(
    /** the joint statement: one answer per item, in order */
    private readonly many: (items: I[]) => Promise<O[]>,
    /** the statement of one item (a lone call, and the replay after a joint failure) */
    private readonly one: (item: I) => Promise<O>,
    private readonly max = 200,
  ) {}

  run(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (this.draining) return;
      this.draining = true;
      // the rest of this turn's calls join the first statement
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, this.max);
        if (batch.length > 1) {
          try {
            const out = await this.many(batch.map((b) => b.item));
            batch.forEach((b, i) => b.resolve(out[i]!));
            continue;
          } catch {
            // replayed one by one below: each caller gets its own outcome
          }
        }
        await Promise.all(
          batch.map((b) =>
            this.one(b.item).then(
              (out) => b.resolve(out),
              (err: unknown) => b.reject(err),
            ),
          ),
        );
      }
    } finally {
      this.draining = false;
    }
  }
}
