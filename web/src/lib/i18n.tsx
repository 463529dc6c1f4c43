import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { en, zhTW, type MessageKey } from './messages';

export type Locale = 'en' | 'zh-TW';
export const LOCALES: { value: Locale; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'zh-TW', label: '繁體中文' },
];
const DICTS: Record<Locale, Record<MessageKey, string>> = { en, 'zh-TW': zhTW };
const STORAGE_KEY = 'locale';

type Vars = Record<string, string | number>;
interface I18n {
  locale: Locale;
  setLocale(l: Locale): void;
  t(key: MessageKey, vars?: Vars): string;
  /** a key that comes from the server (e.g. a metric's label_i18n_key), with a fallback text */
  tx(key: string, fallback: string, vars?: Vars): string;
}

const Ctx = createContext<I18n | null>(null);

function initialLocale(): Locale {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'zh-TW') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-TW' : 'en';
}

const fill = (text: string, vars?: Vars) =>
  vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;

/** A key that may not exist (e.g. `errors.<server code>`), in a given language; undefined when unknown. */
export function translate(locale: Locale, key: string, vars?: Vars): string | undefined {
  const text = (DICTS[locale] as Record<string, string>)[key];
  return text === undefined ? undefined : fill(text, vars);
}

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setState] = useState<Locale>(initialLocale);
  const setLocale = useCallback((l: Locale) => {
    localStorage.setItem(STORAGE_KEY, l);
    document.documentElement.lang = l;
    setState(l);
  }, []);
  const value = useMemo<I18n>(() => {
    document.documentElement.lang = locale;
    const dict = DICTS[locale];
    return {
      locale,
      setLocale,
      t: (key, vars) => fill(dict[key] ?? en[key], vars),
      tx: (key, fallback, vars) => fill((dict as Record<string, string>)[key] ?? fallback, vars),
    };
  }, [locale, setLocale]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}
