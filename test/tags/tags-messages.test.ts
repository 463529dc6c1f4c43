import { describe, expect, it } from 'vitest';
import { tagsEn, tagsPlural, tagsText, tagsZhTW } from '../../web/src/features/admin-tags/messages.js';

describe('tags page strings', () => {
  it('translates every key to zh-TW with the same placeholders, plural pairs complete', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    expect(Object.keys(tagsZhTW).sort()).toEqual(Object.keys(tagsEn).sort());
    for (const [key, en] of Object.entries(tagsEn)) {
      const zh = tagsZhTW[key as keyof typeof tagsEn];
      expect(zh, key).toBeTruthy();
      expect(zh, key).not.toBe(en);
      expect(placeholders(zh), key).toEqual(placeholders(en));
      if (key.endsWith('_one')) expect(tagsEn, key).toHaveProperty([key.replace(/_one$/, '_other')]);
      if (key.endsWith('_other')) expect(tagsEn, key).toHaveProperty([key.replace(/_other$/, '_one')]);
    }
  });

  it('counts in the plural the language asks for', () => {
    expect(tagsPlural('en', 'tags.articles', 1)).toBe('1 article');
    expect(tagsPlural('en', 'tags.articles', 0)).toBe('0 articles');
    expect(tagsPlural('en', 'tags.articles', 2)).toBe('2 articles');
    expect(tagsPlural('en', 'tags.articles', 12345)).toBe('12,345 articles');
    expect(tagsPlural('zh-TW', 'tags.articles', 1)).toBe('1 篇文章');
    expect(tagsPlural('zh-TW', 'tags.articles', 3)).toBe('3 篇文章');
    expect(tagsPlural('en', 'tags.preview.linksMoved', 1, { name: 'llm' })).toBe(
      '1 article link moves to “llm”.',
    );
    expect(tagsText('zh-TW', 'tags.range', { from: 1, to: 50, total: 5000 })).toBe('第 1–50 個，共 5000 個');
  });
});
