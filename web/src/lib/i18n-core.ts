/**
 * The web app's one translation API, without React (lib/i18n.tsx binds it to the page's language).
 *
 * A namespace is a dictionary per language, made by `defineMessages` beside the feature that uses
 * it. English defines the keys; zh-TW must have exactly the same keys (a missing or an extra key
 * does not compile). A key with `_one` / `_other` (and optionally `_zero`) variants is a plural:
 * given a numeric `count`, the variant is chosen by `Intl.PluralRules` of the language and
 * `{count}` is written with the language's digit grouping. `{name}` placeholders are filled by
 * `fill`, the only one in the app.
 */
export type Locale = 'en' | 'zh-TW';
export type Vars = Readonly<Record<string, string | number>>;

const PLURAL_FORMS = ['zero', 'one', 'two', 'few', 'many', 'other'] as const;
type PluralForm = (typeof PLURAL_FORMS)[number];

/** A namespace: its name (unique in the app) and its strings in every language. */
export interface Messages<K extends string = string, N extends string = string> {
  readonly namespace: N;
  readonly en: Readonly<Record<K, string>>;
  readonly 'zh-TW': Readonly<Record<K, string>>;
}

/** the keys of a namespace's dictionary */
/** `a.b` for a plural family `a.b_one`, `a.b_other`, … */
export type PluralBase<K extends string> = K extends `${infer B}_other` ? B : never;
/** what a caller names: a plain key or a plural family (never one of its variants) */
export type Key<K extends string> = Exclude<K, `${string}_${PluralForm}`> | PluralBase<K>;
/** a plural family needs its `count` */
type VarsFor<K extends string, N> =
  N extends PluralBase<K> ? [vars: Vars & { count: number }] : [vars?: Vars];

/** `t` of one namespace in one language */
export type Translate<K extends string> = <N extends Key<K>>(key: N, ...vars: VarsFor<K, N>) => string;

export interface Translator<K extends string> {
  locale: Locale;
  /** a key of the namespace; an unknown key (only possible through a cast) reads as the key itself */
  t: Translate<K>;
  /** a key built at runtime or sent by the server, with the text to show when it is unknown */
  tx(key: string, fallback: string, vars?: Vars): string;
  /** whether the namespace has this key (or plural family) */
  has(key: string): key is Key<K>;
}

/**
 * One namespace in both languages. `zhTW` must have exactly the keys of `en`: a missing key fails
 * the `Record<K, string>` constraint, an extra one is typed `never`.
 */
export function defineMessages<const N extends string, K extends string, Z extends Record<K, string>>(
  namespace: N,
  en: Record<K, string>,
  zhTW: Z & NoInfer<Record<Exclude<keyof Z, K>, never>>,
): Messages<K, N> {
  return { namespace, en, 'zh-TW': zhTW };
}

/** `{name}` placeholders replaced by their vars; a placeholder without a var stays as written. */
export function fill(text: string, vars?: Vars): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(vars, name) ? String(vars[name]) : whole,
  );
}

const pluralRules = new Map<Locale, Intl.PluralRules>();
const numberFormats = new Map<Locale, Intl.NumberFormat>();
function pluralForm(locale: Locale, count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  return rules.select(count);
}
function formatCount(locale: Locale, count: number): string {
  let format = numberFormats.get(locale);
  if (!format) numberFormats.set(locale, (format = new Intl.NumberFormat(locale)));
  return format.format(count);
}

const own = (dict: Readonly<Record<string, string>>, key: string): string | undefined =>
  Object.hasOwn(dict, key) ? dict[key] : undefined;

/** The text of `key` in one language's dictionary, or undefined; a plural variant when it applies. */
function lookup(messages: Messages, locale: Locale, key: string, vars?: Vars): string | undefined {
  const dict = messages[locale];
  const count = vars?.count;
  if (typeof count === 'number' && Number.isFinite(count)) {
    const form = count === 0 && own(dict, `${key}_zero`) !== undefined ? 'zero' : pluralForm(locale, count);
    const text = own(dict, `${key}_${form}`) ?? own(dict, `${key}_other`);
    if (text !== undefined) return fill(text, { ...vars, count: formatCount(locale, count) });
  }
  const text = own(dict, key);
  return text === undefined ? undefined : fill(text, vars);
}

/** `key` of a namespace in `locale`, else in English; undefined when neither has it. */
export function translate(messages: Messages, locale: Locale, key: string, vars?: Vars): string | undefined {
  return (
    lookup(messages, locale, key, vars) ?? (locale === 'en' ? undefined : lookup(messages, 'en', key, vars))
  );
}

/**
 * Every namespace of the app, each under its own name (a name that differs from the key does not
 * compile). The completeness test walks this list; a `defineMessages` that is not in it fails there.
 */
export function namespaces<R extends { [N in keyof R]: Messages<string, N & string> }>(all: R): R {
  return all;
}

/** The namespace's functions in one language. */
export function translator<K extends string>(messages: Messages<K>, locale: Locale): Translator<K> {
  const t = ((key: string, vars?: Vars) => translate(messages, locale, key, vars) ?? key) as Translate<K>;
  return {
    locale,
    t,
    tx: (key, fallback, vars) => translate(messages, locale, key, vars) ?? fill(fallback, vars),
    has: (key): key is Key<K> =>
      !PLURAL_FORMS.some((form) => key.endsWith(`_${form}`)) &&
      (own(messages.en, key) !== undefined || own(messages.en, `${key}_other`) !== undefined),
  };
}
