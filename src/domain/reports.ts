/** Weekly report rules: weeks, citation markers and locales. Pure functions, no I/O. */

export type ReportLocale = 'en' | 'zh-TW';
export const REPORT_LOCALES: readonly ReportLocale[] = ['en', 'zh-TW'];
export const TRANSLATION_LOCALES: readonly ReportLocale[] = ['zh-TW'];

/**
 * How a report was written: `model` by a language model, `extractive` without one (each cited
 * article's own best sentence, quoted). Reports written before this existed read as `model`.
 */
export const REPORT_METHODS = ['model', 'extractive'] as const;
export type ReportMethod = (typeof REPORT_METHODS)[number];
export const reportMethodOf = (value: string | null | undefined): ReportMethod =>
  value === 'extractive' ? 'extractive' : 'model';

const DAY_MS = 86_400_000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar date (YYYY-MM-DD) that exists, e.g. not 2026-02-30. */
export function isIsoDate(value: string): boolean {
  if (!DATE_RE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** The Monday (UTC) of the ISO week that contains the instant, as YYYY-MM-DD. */
export function mondayOf(instant: Date): string {
  const day = (instant.getUTCDay() + 6) % 7; // Monday = 0
  const monday = new Date(
    Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()) - day * DAY_MS,
  );
  return monday.toISOString().slice(0, 10);
}

/**
 * The week a run without --week-start reports on: the last full week before `now`. The cron fires
 * on Monday 08:00, so this is "the past 7 days" rounded to whole days.
 */
export function previousWeekStart(now: Date): string {
  return mondayOf(new Date(now.getTime() - 7 * DAY_MS));
}

/** [start, end) of the 7-day window that starts on the given date. */
export function weekWindow(weekStart: string): { from: Date; to: Date } {
  const from = new Date(`${weekStart}T00:00:00Z`);
  return { from, to: new Date(from.getTime() + 7 * DAY_MS) };
}

/** "Week of Nov 16, 2026" / "2026年11月16日當週": the label on covers and in messages. */
export function weekLabel(weekStart: string, locale: ReportLocale = 'en'): string {
  const [y, m, d] = weekStart.split('-').map(Number) as [number, number, number];
  if (locale === 'zh-TW') return `${y}年${m}月${d}日當週`;
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][m - 1];
  return `Week of ${month} ${d}, ${y}`;
}

// [3] and the grouped form [1, 4] some models write; both are citations
const MARKER_RE = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/** The distinct citation numbers of a text, ascending. */
export function citationSet(text: string): number[] {
  const out = new Set<number>();
  for (const m of text.matchAll(MARKER_RE)) for (const n of m[1]!.split(',')) out.add(Number(n));
  return [...out].sort((a, b) => a - b);
}

export function sameCitations(a: string, b: string): boolean {
  const x = citationSet(a);
  const y = citationSet(b);
  return x.length === y.length && x.every((n, i) => n === y[i]);
}

/**
 * Normalizes the model's citations against the N articles it was given: markers outside 1..N are
 * removed, grouped markers are split ([1, 4] → [1][4]), and the remaining ones are renumbered by
 * first appearance. `order[k]` is the 0-based input position of the article cited as [k+1];
 * articles never cited follow in input order, so every [N] indexes the stored list.
 */
export function normalizeCitations(text: string, articleCount: number): { text: string; order: number[] } {
  const renumber = new Map<number, number>();
  const order: number[] = [];
  const replaced = text.replace(MARKER_RE, (_all, group: string) =>
    group
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isInteger(n) && n >= 1 && n <= articleCount)
      .map((n) => {
        let k = renumber.get(n);
        if (k === undefined) {
          order.push(n - 1);
          k = order.length;
          renumber.set(n, k);
        }
        return `[${k}]`;
      })
      .filter((m, i, all) => all.indexOf(m) === i)
      .join(''),
  );
  for (let i = 0; i < articleCount; i++) if (!order.includes(i)) order.push(i);
  // a removed marker may leave "word ." or doubled spaces behind
  const cleaned = replaced
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
  return { text: cleaned, order };
}
