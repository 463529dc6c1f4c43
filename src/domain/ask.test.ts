import { describe, expect, it } from 'vitest';
import {
  PASSAGE_MAX_CHARS,
  coverage,
  detectLanguage,
  fuseRankings,
  questionTerms,
  windowsOf,
} from './ask.js';

describe('ask: the pure part', () => {
  it('detects a question written in Chinese characters, else English', () => {
    expect(detectLanguage('會模仿人類說話的虎鯨叫什麼名字？')).toBe('zh-TW');
    expect(detectLanguage('效力 NBA 十三年的老將 Rasual Butler 幾歲？')).toBe('zh-TW');
    expect(detectLanguage('What is the 虎鯨 called in the Guardian article about orcas?')).toBe('en');
    expect(detectLanguage('1,700?')).toBe('en');
  });

  it('keeps the words worth looking up, and Chinese bigrams split at function characters', () => {
    expect(questionTerms('Who is the chief executive of the Tax Justice Network?')).toEqual({
      words: ['chief', 'executive', 'tax', 'justice', 'network'],
      bigrams: [],
    });
    const zh = questionTerms('氦-4 冷卻到什麼溫度以下會成為超流體？');
    expect(zh.words).toEqual([]);
    expect(zh.bigrams).toEqual(expect.arrayContaining(['冷卻', '溫度', '超流', '流體']));
    expect(zh.bigrams).not.toContain('什麼');
    expect(questionTerms('a b c d e f g h i j k l m n o p q r s t u v w x y z').words).toEqual([]);
    const many = questionTerms(Array.from({ length: 40 }, (_, i) => `word${i}x`).join(' '));
    expect(many.words.length + many.bigrams.length).toBeLessThanOrEqual(12);
  });

  it('fuses rankings by reciprocal rank (k = 60): agreement beats one list’s top', () => {
    expect(
      fuseRankings([
        ['a', 'b', 'c'],
        ['b', 'd'],
      ]),
    ).toEqual(['b', 'a', 'd', 'c']);
    // 1/61 + 1/70 for x against 1/61 for y
    expect(fuseRankings([['y', ...'abcdefgh', 'x'], ['x']])[0]).toBe('x');
    expect(fuseRankings([[], []])).toEqual([]);
  });

  it('cuts text into windows no longer than the bound, at sentence ends', () => {
    const text = Array.from(
      { length: 30 },
      (_, i) => `Sentence number ${i} says something about helium.`,
    ).join(' ');
    const windows = windowsOf(`<p>${text}</p>\n\n<p>Second paragraph [3].</p>`);
    expect(windows.length).toBeGreaterThan(1);
    for (const w of windows) expect(w.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
    expect(windows.join(' ')).not.toContain('<p>');
    // an article's own [3] must not read as a citation
    expect(windows.join(' ')).toContain('(3)');
    expect(windowsOf('x'.repeat(5000))[0]!.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
  });

  it('measures how much of the question a text holds', () => {
    const terms = questionTerms('How many countries were surveyed for the 2018 Rule of Law Index?');
    expect(coverage(terms, 'The 2018 Rule of Law Index surveyed 113 countries.')).toBeGreaterThan(0.8);
    expect(coverage(terms, 'Orcas can imitate human speech.')).toBe(0);
  });
});
