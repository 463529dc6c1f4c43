import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { translator, type Locale, type Messages, type Translator } from './i18n-core';
import { appMessages, type MessageKey } from './messages';

export type { Locale, Vars } from './i18n-core';
export const LOCALES: { value: Locale; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'zh-TW', label: '繁體中文' },
];
const STORAGE_KEY = 'locale';

/** The page's language and the app-wide namespace (navigation, common words, errors, reader). */
interface I18n extends Translator<MessageKey> {
  setLocale(l: Locale): void;
}

const Ctx = createContext<I18n | null>(null);

function initialLocale(): Locale {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'en' || stored === 'zh-TW') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-TW' : 'en';
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
    return { ...translator(appMessages, locale), setLocale };
  }, [locale, setLocale]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useI18n(): I18n {
  const ctx = useContext(Ctx);
  if (!ctx) throw new Error('useI18n outside I18nProvider');
  return ctx;
}

/** A feature's namespace in the page's language: `const { t } = useT(tagsMessages)`. */
export function useT<K extends string>(messages: Messages<K>): Translator<K> {
  const { locale } = useI18n();
  return useMemo(() => translator(messages, locale), [messages, locale]);
}
