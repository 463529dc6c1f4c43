import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { doiKey, extractDoi, findDoi, isDoi, parseDoi } from './doi.js';

/**
 * Real DOIs as they are cited in public texts (reference lists, code comments, docs): modern ones,
 * Wiley SICI DOIs with and without `(SICI)`, AMS `<…>` and BioOne/ESA `[…]` SICIs.
 */
const REAL_DOIS = [
  '10.1016/S0140-6736(20)30183-5',
  '10.1056/NEJMoa2034577',
  '10.1145/3580305.3599831',
  '10.1126/science.274.5284.85',
  '10.3758/BF03203370',
  '10.1021/ja00205a001',
  '10.48550/arXiv.1706.03762',
  '10.1002/(SICI)1097-0185(19990415)257:2<73::AID-AR8>3.0.CO;2-B',
  '10.1002/(SICI)1520-6653(200021)14:2<43::AID-DIR4>3.0.CO;2-H',
  '10.1002/(SICI)1097-4636(199709)36:3<385::AID-JBM13>3.0.CO;2-8',
  '10.1002/(SICI)1520-6378(199610)21:5<338::AID-COL3>3.0.CO;2-Z',
  '10.1002/(SICI)1097-4571(199009)41:6<391::AID-ASI1>3.0.CO;2-9',
  '10.1002/(SICI)1099-0526(199609/10)2:1<44::AID-CPLX10>3.0.CO;2-X',
  '10.1002/(SICI)1096-987X(199604)17:5/6<642::AID-JCC6>3.0.CO;2-U',
  '10.1002/1099-1417(200007)15:5<449::AID-JQS543>3.0.CO;2-A',
  '10.1175/1520-0442(1995)008<2716:AILSPS>2.0.CO;2',
  '10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2',
  '10.1641/0006-3568(2006)56[333:IPRAGO]2.0.CO;2',
  '10.2193/0022-541X(2005)69[1346:QHOTIO]2.0.CO;2',
  '10.1890/1051-0761(2000)010[0423:TVDOSO]2.0.CO;2',
];

/** how each DOI may be written around it, with the DOI as it must come out */
const settings: [string, (d: string) => string][] = [
  ['bare', (d) => d],
  ['doi: prefix', (d) => `doi:${d}`],
  ['in a sentence', (d) => `See doi:${d}.`],
  ['in parentheses', (d) => `(${d})`],
  ['doi.org link, encoded', (d) => `https://doi.org/${encodePath(d)}`],
  ['dx.doi.org link, raw', (d) => `http://dx.doi.org/${d}`],
  ['link in a sentence', (d) => `Read it at https://doi.org/${encodePath(d)}, then cite it.`],
  ['markdown link', (d) => `[${d}](https://doi.org/${d})`],
  ['HTML attribute', (d) => `<a href='https://doi.org/${encodePath(d)}'>PDF</a>`],
  ['angle brackets', (d) => `<https://doi.org/${encodePath(d)}>`],
  ['HTML-escaped text', (d) => `doi:${d.replace(/</g, '&lt;').replace(/>/g, '&gt;')};`],
  ['publisher link', (d) => `https://onlinelibrary.wiley.com/doi/abs/${encodePath(d)}?src=rss#top`],
  ['info URI', (d) => `info:doi/${encodePath(d)}`],
];

/** what a browser or a feed writer does to a DOI in a link path */
const encodePath = (d: string) => d.split('/').map(encodeURIComponent).join('/');

describe('DOI extraction (Crossref patterns)', () => {
  it.each(REAL_DOIS)('reads %s in every setting, whole', (doi) => {
    expect(isDoi(doi)).toBe(true);
    for (const [name, write] of settings) {
      expect([name, findDoi(write(doi))]).toEqual([name, doi]);
      expect([name, extractDoi(write(doi))]).toEqual([name, doi.toLowerCase()]);
    }
  });

  it('keeps two different SICI DOIs apart (they used to be cut at "<" into one)', () => {
    const a = extractDoi('https://doi.org/10.1002/(SICI)1097-0185(19990415)257:2%3C73::AID-AR8%3E3.0.CO;2-B');
    const b = extractDoi('https://doi.org/10.1002/(SICI)1097-0185(19990415)257:2%3C87::AID-AR9%3E3.0.CO;2-T');
    expect(a).not.toBe(b);
    expect([a, b].every((d) => d!.startsWith('10.1002/(sici)1097-0185(19990415)257:2<'))).toBe(true);
  });

  it('keeps a SICI check character "#", also unescaped at the end of a link', () => {
    const doi = '10.1002/(SICI)1521-4141(199901)29:01<1::AID-IMMU1>3.0.CO;2-#';
    expect(findDoi(`doi:${doi} (1999)`)).toBe(doi);
    expect(findDoi(`https://doi.org/${encodePath(doi)}`)).toBe(doi);
    expect(findDoi(`https://doi.org/${doi}`)).toBe(doi);
    // an ordinary fragment is still cut off
    expect(findDoi('https://doi.org/10.1000/abc#section-2')).toBe('10.1000/abc');
  });

  it('reads the value of prism:doi and dc:identifier fields', () => {
    expect(parseDoi('  10.1038/s41586-020-2649-2 ')).toBe('10.1038/s41586-020-2649-2');
    expect(parseDoi('doi: 10.1038/s41586-020-2649-2')).toBe('10.1038/s41586-020-2649-2');
    expect(
      parseDoi('info:doi/10.1002/%28SICI%291097-0185%2819990415%29257%3A2%3C73%3A%3AAID-AR8%3E3.0.CO%3B2-B'),
    ).toBe('10.1002/(SICI)1097-0185(19990415)257:2<73::AID-AR8>3.0.CO;2-B');
    // an early Wiley DOI outside every other pattern is taken whole when it is the whole value
    expect(parseDoi('10.1002/bip.360070402#x')).toBe('10.1002/bip.360070402#x');
    expect(parseDoi('urn:isbn:0451450523')).toBeNull();
  });

  it('cuts trailing punctuation, quotes and unbalanced brackets but keeps balanced ones', () => {
    expect(findDoi('(see https://doi.org/10.1016/S0140-6736(20)30183-5).')).toBe(
      '10.1016/S0140-6736(20)30183-5',
    );
    expect(findDoi('“10.1056/NEJMoa2034577”, said the paper')).toBe('10.1056/NEJMoa2034577');
    expect(findDoi("'10.1145/3580305.3599831';")).toBe('10.1145/3580305.3599831');
    expect(findDoi('doi:10.1000/abc。')).toBe('10.1000/abc');
    expect(findDoi('<a href="https://doi.org/10.1000/x.y">10.1000/x.y</a>')).toBe('10.1000/x.y');
    expect(findDoi('10.1000/abc?utm_source=rss')).toBe('10.1000/abc');
  });

  it('refuses what is not a DOI', () => {
    for (const s of [
      '',
      'not a doi',
      '10.12/abc',
      '10.1000/',
      'v10.1000/abc',
      '110.1000/abc',
      '10.1000/"x"',
    ]) {
      expect([s, findDoi(s)]).toEqual([s, null]);
    }
  });

  it('compares DOIs without regard to case', () => {
    expect(extractDoi('10.1002/(SICI)1097-0185(19990415)257:2<73::AID-AR8>3.0.CO;2-B')).toBe(
      extractDoi('https://doi.org/10.1002/(sici)1097-0185(19990415)257:2%3c73::aid-ar8%3e3.0.co;2-b'),
    );
  });
});

// --- properties ---

const prefix = fc.integer({ min: 1000, max: 999_999_999 }).map((n) => `10.${n}`);
const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'.split(''));
const modernChar = fc.oneof(alnum, fc.constantFrom(...'-._;()/:'.split('')));
/** modern DOIs as registered: ending in a letter or digit, brackets balanced */
const modernDoi = fc
  .tuple(prefix, alnum, fc.array(modernChar, { maxLength: 40 }), alnum)
  .map(([p, first, mid, last]) => `${p}/${first}${mid.join('')}${last}`)
  .filter((d) => balanced(d) && !/\/\//.test(d));
const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n });
const siciDoi = fc
  .record({
    sici: fc.boolean(),
    issn: fc.tuple(digits(4), digits(3), fc.constantFrom('0', '5', 'X')),
    date: digits(6),
    vol: fc.integer({ min: 1, max: 400 }),
    issue: fc.integer({ min: 1, max: 12 }),
    page: fc.integer({ min: 1, max: 2000 }),
    code: fc.stringMatching(/^[A-Z]{2,5}\d{1,4}$/),
    check: fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ#'.split('')),
  })
  .map(
    (r) =>
      `10.1002/${r.sici ? '(SICI)' : ''}${r.issn[0].join('')}-${r.issn[1].join('')}${r.issn[2]}` +
      `(${r.date.join('')})${r.vol}:${r.issue}<${r.page}::AID-${r.code}>3.0.CO;2-${r.check}`,
  );

function balanced(s: string): boolean {
  let depth = 0;
  for (const c of s) {
    depth += c === '(' ? 1 : c === ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth === 0;
}

describe('DOI extraction properties', () => {
  it('finds every modern and SICI DOI whole in every setting', () => {
    fc.assert(
      fc.property(fc.oneof(modernDoi, siciDoi), fc.constantFrom(...settings), (doi, [, write]) => {
        expect(findDoi(write(doi))).toBe(doi);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives two different SICI DOIs two different keys', () => {
    fc.assert(
      fc.property(siciDoi, siciDoi, (a, b) => {
        fc.pre(a.toLowerCase() !== b.toLowerCase());
        expect(extractDoi(`https://doi.org/${encodePath(a)}`)).not.toBe(extractDoi(`doi:${b}`));
      }),
      { numRuns: 1000 },
    );
  });

  it('is case-insensitive and idempotent, and what it returns is a DOI', () => {
    fc.assert(
      fc.property(fc.oneof(modernDoi, siciDoi), (doi) => {
        expect(extractDoi(doi.toUpperCase())).toBe(extractDoi(doi.toLowerCase()));
        expect(doiKey(doi)).toBe(extractDoi(doi));
      }),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.option(fc.oneof(modernDoi, siciDoi)), (noise, doi) => {
        const found = findDoi(doi ? `${noise} ${doi} ${noise}` : noise);
        if (found === null) return;
        expect(isDoi(found)).toBe(true);
        expect(findDoi(found)).toBe(found);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes time linear in the input, also on hostile text', () => {
    const hostile = [
      '10.1000/'.repeat(200_000),
      `10.1002/(SICI)1234-5678(1)${'<'.repeat(500_000)}`,
      `https://doi.org/${'%3C'.repeat(300_000)}`,
      `${'a'.repeat(1_000_000)} 10.1000/x`,
    ];
    for (const text of hostile) {
      const started = performance.now();
      findDoi(text);
      extractDoi(text);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});
