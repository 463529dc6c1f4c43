import { asc, eq, gte, sql } from 'drizzle-orm';
import type { LlmUsageEntry, LlmUsageStore } from '../../../application/shared/llm-usage.js';
import type { Db } from '../client.js';
import { llmUsage } from '../schema/index.js';

/** the run id of calls outside a run (the key has no NULL: one row per day, purpose and provider) */
const NO_RUN = '00000000-0000-0000-0000-000000000000';

const totals = {
  calls: sql<number>`sum(${llmUsage.calls})::int`,
  prompt_tokens: sql<number>`sum(${llmUsage.promptTokens})::bigint`.mapWith(Number),
  completion_tokens: sql<number>`sum(${llmUsage.completionTokens})::bigint`.mapWith(Number),
};

export class DrizzleLlmUsageStore implements LlmUsageStore {
  constructor(private readonly db: Db) {}

  async add(entries: LlmUsageEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.db
      .insert(llmUsage)
      .values(
        entries.map((e) => ({
          day: e.day,
          purpose: e.purpose,
          provider: e.provider,
          runId: e.runId ?? NO_RUN,
          calls: e.calls,
          promptTokens: e.promptTokens,
          completionTokens: e.completionTokens,
        })),
      )
      .onConflictDoUpdate({
        target: [llmUsage.day, llmUsage.purpose, llmUsage.provider, llmUsage.runId],
        set: {
          calls: sql`${llmUsage.calls} + excluded.calls`,
          promptTokens: sql`${llmUsage.promptTokens} + excluded.prompt_tokens`,
          completionTokens: sql`${llmUsage.completionTokens} + excluded.completion_tokens`,
        },
      });
  }

  perDay(sinceDay: string) {
    return this.db
      .select({ day: llmUsage.day, purpose: llmUsage.purpose, ...totals })
      .from(llmUsage)
      .where(gte(llmUsage.day, sinceDay))
      .groupBy(llmUsage.day, llmUsage.purpose)
      .orderBy(asc(llmUsage.day), asc(llmUsage.purpose));
  }

  forRun(runId: string) {
    return this.db
      .select({ purpose: llmUsage.purpose, ...totals })
      .from(llmUsage)
      .where(eq(llmUsage.runId, runId))
      .groupBy(llmUsage.purpose)
      .orderBy(asc(llmUsage.purpose));
  }
}
