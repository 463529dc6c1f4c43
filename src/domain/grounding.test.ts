import { describe, expect, it } from 'vitest';
import { findQuote, groundLocally, recite, relevantPassages, splitSentences } from './grounding.js';

// the stored texts of three sources (title, summary), as the report job passes them
const SOURCES = [
  'Diamond magnetometry at room temperature. Sensitive magnetometers usually need cryogenics. ' +
    'Diamond magnetometry with an ensemble of colour centres reaches 3 pT sensitivity at room temperature.',
  'Atom interferometers measure gravity in the field. Our atom interferometers measured gravity in ' +
    'the field for 14 days with a stability of 10 nGal.',
  'Squeezed light for gravitational-wave detectors. Injecting squeezed light reduced the shot noise ' +
    'of the LIGO detector by 6 dB across its band.',
];
const NOW = new Date('2026-11-23T08:00:00Z');

describe('grounding, the local pass', () => {
  it('splits sentences keeping the markers that follow their stop', () => {
    expect(splitSentences('One claim [1]. Another one. [2] A third [1, 3]! 第四句 [2]。 End.')).toEqual([
      'One claim [1].',
      'Another one. [2]',
      'A third [1, 3]!',
      '第四句 [2]。',
      'End.',
    ]);
  });

  it('keeps a supported sentence, corrects a wrong number, drops an invented claim, an out-of-range number and a changed figure', () => {
    const report = [
      'Diamond magnetometry reaches 3 pT sensitivity at room temperature [1].', // (a) correct
      '',
      '- Quantum computers broke RSA encryption this week [2].', // (b) in no source
      '- Squeezed light reduced the shot noise of the LIGO detector by 6 dB [2].', // (c) source 3's
      '- Quantum sensors will replace GPS by 2030 [7].', // (d) no source 7, nor any other
      '- Atom interferometers measured gravity in the field for 30 days [2].', // (e) 14 in the source
      '',
      'An uncited closing line.',
    ].join('\n');
    const { text, grounding } = groundLocally(report, SOURCES, NOW);

    expect(text).toBe(
      [
        'Diamond magnetometry reaches 3 pT sensitivity at room temperature [1].',
        '',
        '- Squeezed light reduced the shot noise of the LIGO detector by 6 dB [3].',
        '',
        'An uncited closing line.',
      ].join('\n'),
    );
    expect(grounding).toMatchObject({ method: 'local', checked_at: NOW.toISOString(), score: 1 });
    expect(grounding.sentences).toEqual([
      {
        index: 0,
        text: 'Diamond magnetometry reaches 3 pT sensitivity at room temperature [1].',
        citations: [1],
        support: 'supported',
        evidence: [
          {
            n: 1,
            quote:
              'Diamond magnetometry with an ensemble of colour centres reaches 3 pT sensitivity at room temperature.',
          },
        ],
      },
      {
        index: 2,
        text: 'Squeezed light reduced the shot noise of the LIGO detector by 6 dB [3].',
        citations: [3],
        support: 'supported',
        evidence: [
          {
            n: 3,
            quote:
              'Injecting squeezed light reduced the shot noise of the LIGO detector by 6 dB across its band.',
          },
        ],
      },
    ]);
    expect(grounding.removed).toEqual([
      { text: 'Quantum computers broke RSA encryption this week [2].', reason: 'not_in_source' },
      { text: 'Quantum sensors will replace GPS by 2030 [7].', reason: 'citation_out_of_range' },
      {
        text: 'Atom interferometers measured gravity in the field for 30 days [2].',
        reason: 'figure_not_in_source',
      },
    ]);
  });

  it('corrects an out-of-range number when another source holds the claim, and scores partial support as half', () => {
    const { text, grounding } = groundLocally(
      'Atom interferometers measured gravity for 14 days [7]. Diamond magnetometry needs no cryogenics in practice, in every hospital [1].',
      SOURCES,
      NOW,
    );
    expect(text).toContain('Atom interferometers measured gravity for 14 days [2].');
    expect(grounding.sentences.map((s) => [s.citations, s.support])).toEqual([
      [[2], 'supported'],
      [[1], 'partial'],
    ]);
    expect(grounding.score).toBe(0.75);
  });

  it('checks Chinese sentences by their character pairs', () => {
    const zh = ['鑽石磁力計在室溫下達到 3 pT 的靈敏度。'];
    const ok = groundLocally('鑽石磁力計在室溫下達到 3 pT 靈敏度 [1]。', zh, NOW);
    expect(ok.grounding.sentences[0]).toMatchObject({ support: 'supported' });
    const bad = groundLocally('量子電腦破解了加密演算法 [1]。', zh, NOW);
    expect(bad.text).toBe('');
    expect(bad.grounding).toMatchObject({ score: 0, sentences: [], removed: [{ reason: 'not_in_source' }] });
  });
});

describe('grounding, what a model judgement builds on', () => {
  it('finds a quote in its source with case, spacing, quotation marks and dashes folded', () => {
    const source = 'Results: the <b>sensor’s</b> drift fell to 2 nT/h — a record.\nMore text.';
    expect(findQuote("THE SENSOR'S drift   fell to 2 nT/h - a record", source)).toBe(
      'the sensor’s drift fell to 2 nT/h — a record',
    );
    expect(findQuote('“drift fell to 2 nT/h”…', source)).toBe('drift fell to 2 nT/h');
    // not in the source, or too short to prove anything
    expect(findQuote('drift fell to 3 nT/h', source)).toBeNull();
    expect(findQuote('the', source)).toBeNull();
    expect(findQuote('', source)).toBeNull();
  });

  it('cuts a long source to the sentences a claim is about, in their order, within the bound', () => {
    const filler = Array.from({ length: 50 }, (_, i) => `Filler sentence ${i + 100} says little.`).join(' ');
    const source = `${filler} The clock kept time to 1 part in 10^18. ${filler} Its fountain used cold atoms.`;
    const out = relevantPassages(source, ['Cold atoms kept the fountain clock to 1 part in 10^18.'], 200);
    expect(out.length).toBeLessThanOrEqual(200);
    expect(out).toMatch(/The clock kept time to 1 part in 10\^18\..* … Its fountain used cold atoms\.$/);
    // a short source whole, flattened
    expect(relevantPassages('<p>Short\n source.</p>', ['x'], 200)).toBe('Short source.');
  });

  it('re-cites a sentence to several numbers before its stop', () => {
    expect(recite('A claim [4].', [1, 3])).toBe('A claim [1][3].');
    expect(recite('一個說法 [4]。', 2)).toBe('一個說法 [2]。');
  });
});
