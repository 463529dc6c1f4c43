import { describe, expect, it } from 'vitest';
import { translate } from '../../web/src/lib/i18n-core';
import { appMessages } from '../../web/src/lib/messages';
import { buildTestApp } from '../helpers/app.js';

/**
 * The unit after a metric's value on an article card ("1 citation", "3 articles"): every unit of
 * the seeded catalog is a plural family in both languages, chosen by the value, never the raw
 * unit name the catalog stores ("1 articles").
 */
describe('metric units on the cards', () => {
  it('has a translated, plural-aware unit for every seeded catalog metric', async () => {
    const t = await buildTestApp();
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metric-definitions' });
      const units = res.json<{ items?: { unit: string | null }[] } | { unit: string | null }[]>();
      const list = Array.isArray(units) ? units : (units.items ?? []);
      const named = [...new Set(list.map((d) => d.unit).filter((u): u is string => !!u && u !== 'count'))];
      expect(named).toEqual(expect.arrayContaining(['citations', 'articles']));
      for (const unit of named)
        for (const locale of ['en', 'zh-TW'] as const)
          for (const count of [1, 3])
            expect(
              translate(appMessages, locale, `units.${unit}`, { count }),
              `${unit} ${locale} ${count}`,
            ).toBeTruthy();
    } finally {
      await t.close();
    }
  });

  it('chooses the singular for one and the plural otherwise', () => {
    expect(translate(appMessages, 'en', 'units.articles', { count: 1 })).toBe('article');
    expect(translate(appMessages, 'en', 'units.articles', { count: 3 })).toBe('articles');
    expect(translate(appMessages, 'en', 'units.citations', { count: 1 })).toBe('citation');
    expect(translate(appMessages, 'en', 'units.citations', { count: 0 })).toBe('citations');
    expect(translate(appMessages, 'zh-TW', 'units.articles', { count: 1 })).toBe('篇報導');
  });
});
