import { describe, expect, it } from 'vitest';
import { usageTable } from '../../web/src/features/monitoring/model/llm-usage';

const row = (day: string, purpose: string, calls: number, prompt: number, completion: number) => ({
  day,
  purpose,
  calls,
  prompt_tokens: prompt,
  completion_tokens: completion,
});

describe('the Service tab’s model usage table', () => {
  it('groups the rows by day, newest first, each day’s purposes by tokens, and sums the window per purpose', () => {
    const t = usageTable([
      row('2025-07-01', 'translation', 2, 20, 10),
      row('2025-07-01', 'analysis', 3, 300, 90),
      row('2025-07-03', 'ask', 1, 50, 5),
      row('2025-07-03', 'analysis', 1, 100, 30),
    ]);
    expect(t.days.map((d) => d.day)).toEqual(['2025-07-03', '2025-07-01']);
    expect(t.days[0]!.purposes.map((p) => p.purpose)).toEqual(['analysis', 'ask']);
    expect(t.days[1]!.total).toEqual({ calls: 5, prompt_tokens: 320, completion_tokens: 100 });
    expect(t.window.purposes).toEqual([
      { purpose: 'analysis', calls: 4, prompt_tokens: 400, completion_tokens: 120 },
      { purpose: 'ask', calls: 1, prompt_tokens: 50, completion_tokens: 5 },
      { purpose: 'translation', calls: 2, prompt_tokens: 20, completion_tokens: 10 },
    ]);
    expect(t.window.total).toEqual({ calls: 7, prompt_tokens: 470, completion_tokens: 135 });
  });

  it('is empty without rows, and counts what is not a finite non-negative number as nothing', () => {
    expect(usageTable(undefined)).toEqual({
      days: [],
      window: { day: '', purposes: [], total: { calls: 0, prompt_tokens: 0, completion_tokens: 0 } },
    });
    const t = usageTable([
      row('2025-07-01', 'other', Number.NaN, -5, 7),
      { ...row('2025-07-01', 'other', 1, 1, 1), calls: '9' as unknown as number },
      { day: null, purpose: 'x' } as unknown as ReturnType<typeof row>,
    ]);
    expect(t.days).toHaveLength(1);
    expect(t.window.total).toEqual({ calls: 0, prompt_tokens: 1, completion_tokens: 8 });
  });
});
