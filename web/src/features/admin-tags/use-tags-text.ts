import { useCallback } from 'react';
import { useI18n } from '../../lib/i18n';
import { tagsPlural, tagsText, type TagsKey, type TagsPluralKey } from './messages';

type Vars = Record<string, string | number>;

/** The tags page's strings in the current language: `t(key)`, and `n(key, count)` for plurals. */
export function useTagsText() {
  const { locale } = useI18n();
  const t = useCallback((key: TagsKey, vars?: Vars) => tagsText(locale, key, vars), [locale]);
  const n = useCallback(
    (key: TagsPluralKey, count: number, vars?: Vars) => tagsPlural(locale, key, count, vars),
    [locale],
  );
  return { t, n, locale };
}
