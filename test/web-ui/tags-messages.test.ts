import { describe, expect, it } from 'vitest';
import { tagsMessages } from '../../web/src/features/admin-tags/messages';
import { translator } from '../../web/src/lib/i18n-core';

describe('tags page strings', () => {
  it('translates every key to zh-TW (never the English text), plural pairs complete', () => {
    const { en, 'zh-TW': zh } = tagsMessages;
    for (const [key, text] of Object.entries(en)) {
      expect(zh[key as keyof typeof en], key).not.toBe(text);
      if (key.endsWith('_one')) expect(en, key).toHaveProperty([key.replace(/_one$/, '_other')]);
      if (key.endsWith('_other')) expect(en, key).toHaveProperty([key.replace(/_other$/, '_one')]);
    }
  });

  it('counts in the plural the language asks for', () => {
    const en = translator(tagsMessages, 'en').t;
    const zh = translator(tagsMessages, 'zh-TW').t;
    expect(en('tags.articles', { count: 1 })).toBe('1 article');
    expect(en('tags.articles', { count: 0 })).toBe('0 articles');
    expect(en('tags.articles', { count: 2 })).toBe('2 articles');
    expect(en('tags.articles', { count: 12345 })).toBe('12,345 articles');
    expect(zh('tags.articles', { count: 1 })).toBe('1 篇文章');
    expect(zh('tags.articles', { count: 3 })).toBe('3 篇文章');
    expect(en('tags.preview.linksMoved', { count: 1, name: 'llm' })).toBe('1 article link moves to “llm”.');
    expect(zh('tags.range', { from: 1, to: 50, total: 5000 })).toBe('第 1–50 個，共 5000 個');
  });
});
