import { describe, expect, it } from 'vitest';
import { buildSnippet, parseSearch } from './search.js';

describe('search query and snippets', () => {
  it('reads the websearch syntax: terms to highlight, plain or not', () => {
    expect(parseSearch('  protein folding ')).toEqual({
      text: 'protein folding',
      terms: ['protein', 'folding'],
      plain: true,
    });
    expect(parseSearch('"sparse attention" OR graphs -weather')).toEqual({
      text: '"sparse attention" OR graphs -weather',
      terms: ['sparse attention', 'graphs'],
      plain: false,
    });
    expect(parseSearch('結構預測').terms).toEqual(['結構預測']);
    expect(parseSearch('-').plain).toBe(true);
  });

  it('cuts the best field around its first hit, highlighting stems and CJK substrings', () => {
    const snippet = buildSnippet(
      ['A title without it', 'Models fold proteins; folding models are fast. Another modelling note.'],
      ['folding', 'models'],
    );
    expect(snippet!.filter((s) => s.highlight).map((s) => s.text)).toEqual([
      'Models',
      'fold',
      'folding',
      'models',
      'modelling',
    ]);
    expect(snippet!.map((s) => s.text).join('')).toBe(
      'Models fold proteins; folding models are fast. Another modelling note.',
    );
    const cjk = buildSnippet(['研究人員提出了蛋白質結構預測的新方法'], ['結構預測']);
    expect(cjk).toEqual([
      { text: '研究人員提出了蛋白質', highlight: false },
      { text: '結構預測', highlight: true },
      { text: '的新方法', highlight: false },
    ]);
    expect(buildSnippet(['nothing here'], ['absent'])).toBeNull();
  });

  it('keeps a long field to a window with ellipses and never returns markup of its own', () => {
    const long = `${'lorem ipsum '.repeat(40)}the <b>needle</b> is here ${'dolor sit '.repeat(40)}`;
    const snippet = buildSnippet([long], ['needle'])!;
    const text = snippet.map((s) => s.text).join('');
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(205);
    // the field's own text comes back as text (the page escapes it), highlighted where it matched
    expect(snippet.find((s) => s.highlight)?.text).toBe('needle');
  });

  it('highlights what the search matched: no one-letter prefixes, short words whole, eight terms', () => {
    const text = 'A banana and an apple; plan b by Bob at ab and abc.';
    const lit = (terms: string[]) =>
      (buildSnippet([text], terms) ?? []).filter((s) => s.highlight).map((s) => s.text);
    expect(lit(['a', 'b', 'banana'])).toEqual(['banana']);
    expect(lit(['b'])).toEqual(['b']);
    expect(lit(['ab'])).toEqual(['ab']);
    expect(lit(['apple', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'banana'])).toEqual(['apple']);
  });
});
