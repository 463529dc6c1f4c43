import { useCallback } from 'react';
import { useI18n } from '../../../lib/i18n';
import { monEn, monZhTW, type MonKey } from './messages';

export type MonT = (key: MonKey, vars?: Record<string, string | number>) => string;

const fill = (text: string, vars?: Record<string, string | number>) =>
  vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;

/** The monitoring page's translate function, in the app's locale; `tp` for keys built at runtime. */
export function useMonT(): { t: MonT; tp: (key: string, fallback: string) => string; locale: string } {
  const { locale } = useI18n();
  const dict = locale === 'zh-TW' ? monZhTW : monEn;
  const t = useCallback<MonT>((key, vars) => fill(dict[key] ?? monEn[key], vars), [dict]);
  const tp = useCallback(
    (key: string, fallback: string) => (dict as Record<string, string>)[key] ?? fallback,
    [dict],
  );
  return { t, tp, locale };
}
