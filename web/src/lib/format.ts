export function formatNumber(value: number, locale: string, hint?: string): string {
  if (hint === 'percent') return new Intl.NumberFormat(locale, { style: 'percent' }).format(value);
  if (hint === 'compact' || value >= 100_000)
    return new Intl.NumberFormat(locale, { notation: 'compact' }).format(value);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
}

export function formatDate(value: string | null | undefined, locale: string): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime())
    ? value
    : new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(d);
}
