/** What the language model cost, as the Service tab's table reads it (pure, no React). */

export interface UsageTotals {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
}

export interface UsageRow extends UsageTotals {
  day: string;
  purpose: string;
}

export interface UsageGroup {
  /** a UTC day (YYYY-MM-DD), or '' for the whole window */
  day: string;
  /** one row per purpose, the most tokens first */
  purposes: ({ purpose: string } & UsageTotals)[];
  total: UsageTotals;
}

export interface UsageTable {
  /** the days with calls, newest first */
  days: UsageGroup[];
  /** every purpose over the whole window */
  window: UsageGroup;
}

const zero = (): UsageTotals => ({ calls: 0, prompt_tokens: 0, completion_tokens: 0 });
/** a count from the server, kept finite and non-negative whatever was sent */
const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

function add(into: UsageTotals, r: UsageTotals): void {
  into.calls += count(r.calls);
  into.prompt_tokens += count(r.prompt_tokens);
  into.completion_tokens += count(r.completion_tokens);
}

function group(day: string, rows: UsageRow[]): UsageGroup {
  const per = new Map<string, { purpose: string } & UsageTotals>();
  const total = zero();
  for (const r of rows) {
    const p = per.get(r.purpose) ?? { purpose: r.purpose, ...zero() };
    per.set(r.purpose, p);
    add(p, r);
    add(total, r);
  }
  const tokens = (t: UsageTotals) => t.prompt_tokens + t.completion_tokens;
  const purposes = [...per.values()].sort(
    (a, b) => tokens(b) - tokens(a) || b.calls - a.calls || a.purpose.localeCompare(b.purpose),
  );
  return { day, purposes, total };
}

/** Rows per day and purpose (in any order, a purpose may repeat) grouped by day, newest first. */
export function usageTable(rows: readonly UsageRow[] | undefined): UsageTable {
  const list = (rows ?? []).filter((r) => typeof r.day === 'string' && typeof r.purpose === 'string');
  const byDay = new Map<string, UsageRow[]>();
  for (const r of list) {
    const of = byDay.get(r.day);
    if (of) of.push(r);
    else byDay.set(r.day, [r]);
  }
  const days = [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0))
    .map(([day, rs]) => group(day, rs));
  return { days, window: group('', list) };
}
