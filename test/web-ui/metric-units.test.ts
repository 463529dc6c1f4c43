import { describe, expect, it } from 'vitest';
import { translate } from '../../web/src/lib/i18n-core';
import { appMessages } from '../../web/src/lib/messages';

/** the units of the catalog seed (src/infrastructure/db/seed.ts): citation_count, coverage_count */
const SEEDED_UNITS = ['citations', 'articles'];

/**
 * The unit after a metric's value on an article card ("1 citation", "3 articles"): a plural family
 * in both languages, chosen by the value, never the raw unit name the catalog stores ("1 articles").
 */
describe('metric units on the cards', () => {
  it.each(SEEDED_UNITS)('has the %s unit in both languages for one and for many', (unit) => {
    for (const locale of ['en', 'zh-TW'] as const)
      for (const count of [1, 3])
        expect(translate(appMessages, locale, `units.${unit}`, { count }), `${locale} ${count}`).toBeTruthy();
  });

  it('chooses the singular for one and the plural otherwise', () => {
    expect(translate(appMessages, 'en', 'units.articles', { count: 1 })).toBe('article');
    expect(translate(appMessages, 'en', 'units.articles', { count: 3 })).toBe('articles');
    expect(translate(appMessages, 'en', 'units.citations', { count: 1 })).toBe('citation');
    expect(translate(appMessages, 'en', 'units.citations', { count: 0 })).toBe('citations');
    expect(translate(appMessages, 'zh-TW', 'units.articles', { count: 1 })).toBe('篇報導');
  });
});
