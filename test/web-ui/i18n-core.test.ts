import { describe, expect, it } from 'vitest';
import { defineMessages, fill, translate, translator, type Messages } from '../../web/src/lib/i18n-core';

const m = defineMessages(
  'demo',
  {
    greet: 'Hello {name}',
    plain: 'Plain',
    views: '{count} views',
    files_zero: 'No files',
    files_one: '{count} file',
    files_other: '{count} files',
    left_one: 'One left in {place}',
    left_other: '{count} left in {place}',
  },
  {
    greet: '你好 {name}',
    plain: '純文字',
    views: '{count} 次瀏覽',
    files_zero: '沒有檔案',
    files_one: '{count} 個檔案（單）',
    files_other: '{count} 個檔案',
    left_one: '{place} 剩一個',
    left_other: '{place} 剩 {count} 個',
  },
);

/** a namespace whose zh-TW lacks a key: only reachable through a cast, as from stale data */
const partial = {
  namespace: 'partial',
  en: { onlyEn: 'Only in English {x}', both: 'Both', n_one: '{count} item', n_other: '{count} items' },
  'zh-TW': { both: '兩者' },
} as unknown as Messages<'onlyEn' | 'both' | 'n_one' | 'n_other'>;

describe('fill', () => {
  it('replaces every {name} that has a var, as text', () => {
    expect(fill('{a} and {b} and {a}', { a: 1, b: 'two' })).toBe('1 and two and 1');
    expect(fill('{a}', { a: 0 })).toBe('0');
  });

  it('leaves a placeholder without a var as written, and the text alone without vars', () => {
    expect(fill('{a} {missing}', { a: 'x' })).toBe('x {missing}');
    expect(fill('{a}')).toBe('{a}');
    expect(fill('no placeholders', { a: 1 })).toBe('no placeholders');
  });

  it('fills once: a value that looks like a placeholder is not filled again', () => {
    expect(fill('{a} {b}', { a: '{b}', b: 'B' })).toBe('{b} B');
  });

  it('never reads a var from the prototype chain', () => {
    expect(fill('{constructor} {toString} {__proto__}', {})).toBe('{constructor} {toString} {__proto__}');
  });
});

describe('plurals by Intl.PluralRules', () => {
  it('English: one for 1, other for the rest, zero when the key has it', () => {
    const { t } = translator(m, 'en');
    expect(t('files', { count: 1 })).toBe('1 file');
    expect(t('files', { count: 2 })).toBe('2 files');
    expect(t('files', { count: 0 })).toBe('No files');
    expect(t('files', { count: 1.5 })).toBe('1.5 files');
    expect(t('left', { count: 1, place: 'Taipei' })).toBe('One left in Taipei');
    expect(t('left', { count: 0, place: 'Taipei' })).toBe('0 left in Taipei');
  });

  it('zh-TW has only `other`: its `_one` is never chosen', () => {
    const { t } = translator(m, 'zh-TW');
    expect(new Intl.PluralRules('zh-TW').select(1)).toBe('other');
    expect(t('files', { count: 1 })).toBe('1 個檔案');
    expect(t('files', { count: 7 })).toBe('7 個檔案');
    expect(t('files', { count: 0 })).toBe('沒有檔案');
    expect(t('left', { count: 1, place: '台北' })).toBe('台北 剩 1 個');
  });

  it('writes the count of a plural with the language’s digit grouping', () => {
    expect(translator(m, 'en').t('files', { count: 12345 })).toBe('12,345 files');
    expect(translator(m, 'zh-TW').t('files', { count: 12345 })).toBe('12,345 個檔案');
  });

  it('a plain key with {count} is filled as given, not pluralised or grouped', () => {
    expect(translator(m, 'en').t('views', { count: 12345 })).toBe('12345 views');
  });

  it('a count that is not a finite number does not pick a variant', () => {
    const { tx } = translator(m, 'en');
    expect(tx('files', 'fallback', { count: '3' })).toBe('fallback');
    expect(tx('files', 'fallback', { count: Number.NaN })).toBe('fallback');
  });
});

describe('lookup and fallback', () => {
  it('reads the key in the language asked for', () => {
    expect(translator(m, 'en').t('greet', { name: 'Ada' })).toBe('Hello Ada');
    expect(translator(m, 'zh-TW').t('greet', { name: 'Ada' })).toBe('你好 Ada');
    expect(translate(m, 'zh-TW', 'plain')).toBe('純文字');
  });

  it('falls back to English for a key the language lacks, plurals by English rules', () => {
    expect(translate(partial, 'zh-TW', 'onlyEn', { x: 1 })).toBe('Only in English 1');
    expect(translate(partial, 'zh-TW', 'n', { count: 1 })).toBe('1 item');
    expect(translate(partial, 'zh-TW', 'both')).toBe('兩者');
  });

  it('an unknown key: undefined from translate, the key itself from t, the fallback (filled) from tx', () => {
    expect(translate(m, 'en', 'nope')).toBeUndefined();
    expect(translate(m, 'zh-TW', 'nope')).toBeUndefined();
    const { t, tx } = translator(m, 'zh-TW');
    expect((t as (key: string) => string)('nope')).toBe('nope');
    expect(tx('nope', 'Default {n}', { n: 3 })).toBe('Default 3');
    expect(tx('plain', 'Default')).toBe('純文字');
  });

  it('server-sent keys that name Object members are unknown, not functions', () => {
    const { tx, has } = translator(m, 'en');
    for (const key of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(translate(m, 'en', key), key).toBeUndefined();
      expect(tx(key, 'fb'), key).toBe('fb');
      expect(has(key), key).toBe(false);
    }
  });

  it('has: plain keys and plural families, not their variants', () => {
    const { has } = translator(m, 'zh-TW');
    expect(has('greet')).toBe(true);
    expect(has('files')).toBe(true);
    expect(has('files_one')).toBe(false);
    expect(has('nope')).toBe(false);
  });

  it('defineMessages keeps the name and both dictionaries as given', () => {
    expect(m.namespace).toBe('demo');
    expect(Object.keys(m['zh-TW']).sort()).toEqual(Object.keys(m.en).sort());
  });
});
